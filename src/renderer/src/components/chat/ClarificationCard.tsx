import { useState } from 'react'

/** The model's question back to the user, with its options as buttons and room for a free answer. */
export function ClarificationCard(props: { question: string; options: string[]; disabled: boolean; onAnswer(answer: string): void }): React.JSX.Element {
  const [custom, setCustom] = useState('')
  return (
    <div className="clarification" data-testid="clarification">
      <div className="clarification-label">The assistant needs a detail before querying</div>
      <p className="clarification-question">{props.question}</p>
      <div className="clarification-options">
        {props.options.map((option) => (
          <button key={option} className="button secondary" disabled={props.disabled} onClick={() => props.onAnswer(option)}>
            {option}
          </button>
        ))}
      </div>
      <form
        className="clarification-custom"
        onSubmit={(event) => {
          event.preventDefault()
          if (custom.trim()) props.onAnswer(custom.trim())
        }}
      >
        <input className="input" placeholder="Or type your own answer…" value={custom} disabled={props.disabled} onChange={(event) => setCustom(event.target.value)} />
        <button className="button" type="submit" disabled={props.disabled || !custom.trim()}>
          Answer
        </button>
      </form>
    </div>
  )
}
