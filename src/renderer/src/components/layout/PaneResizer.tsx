import { useRef } from 'react'

// A draggable, keyboard-adjustable border between two panes (ARIA window splitter).

interface Props {
  label: string
  /** Current width of the pane this border sizes. */
  value: number
  min: number
  max: number
  /** The pane grows when the pointer moves right (sidebar) or left (inspector). */
  grows: 'right' | 'left'
  onResize(width: number): void
  className?: string
}

export function PaneResizer({ label, value, min, max, grows, onResize, className }: Props): React.JSX.Element {
  const drag = useRef<{ x: number; width: number } | null>(null)
  const sign = grows === 'right' ? 1 : -1
  return (
    <div
      className={`pane-resizer ${className ?? ''}`}
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={value}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      title={`${label}: drag, or use the arrow keys`}
      onPointerDown={(event) => {
        event.currentTarget.setPointerCapture(event.pointerId)
        drag.current = { x: event.clientX, width: value }
      }}
      onPointerMove={(event) => {
        if (drag.current) onResize(drag.current.width + sign * (event.clientX - drag.current.x))
      }}
      onPointerUp={() => (drag.current = null)}
      onPointerCancel={() => (drag.current = null)}
      onKeyDown={(event) => {
        const step = event.shiftKey ? 64 : 16
        if (event.key === 'ArrowRight') {
          event.preventDefault()
          onResize(value + sign * step)
        }
        if (event.key === 'ArrowLeft') {
          event.preventDefault()
          onResize(value - sign * step)
        }
        if (event.key === 'Home') {
          event.preventDefault()
          onResize(min)
        }
        if (event.key === 'End') {
          event.preventDefault()
          onResize(max)
        }
      }}
    />
  )
}
