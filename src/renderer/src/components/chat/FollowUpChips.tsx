/** Questions the model suggests asking next; one click sends it. */
export function FollowUpChips(props: { suggestions: string[]; disabled: boolean; onPick(text: string): void }): React.JSX.Element | null {
  if (props.suggestions.length === 0) return null
  return (
    <div className="follow-ups" data-testid="follow-ups">
      {props.suggestions.map((suggestion) => (
        <button key={suggestion} className="chip" disabled={props.disabled} onClick={() => props.onPick(suggestion)}>
          {suggestion}
        </button>
      ))}
    </div>
  )
}
