// A thumb up or down, drawn, so it shows the same on every system (an emoji needs a colour-emoji font).

export function ThumbIcon({ down = false }: { down?: boolean }): React.JSX.Element {
  return (
    <svg className="thumb-icon" width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden style={down ? { transform: 'rotate(180deg)' } : undefined}>
      <path d="M7 10v11H3V10h4zM7 10l4-8a3 3 0 0 1 3 3v4h5.5a2 2 0 0 1 2 2.3l-1.4 8a2 2 0 0 1-2 1.7H7" />
    </svg>
  )
}
