import './error-boundary.css'
import { Component, type ErrorInfo, type ReactNode } from 'react'

// A part of the UI that throws while rendering (a malformed answer, a panel fed odd data) must not blank the
// whole window: React unmounts everything above the nearest boundary, so each message and each panel has one.

interface Props {
  /** Shown instead of the children once they threw while rendering. */
  fallback(error: Error, retry: () => void): ReactNode
  /** When this changes, a failed boundary renders its children again (the message or the chat changed). */
  resetKey?: unknown
  children: ReactNode
}

interface State {
  error: Error | null
  resetKey: unknown
}

export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey }

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) }
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return Object.is(props.resetKey, state.resetKey) ? null : { error: null, resetKey: props.resetKey }
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('A part of the window could not be shown:', error, info.componentStack)
  }

  private readonly retry = (): void => this.setState({ error: null })

  override render(): ReactNode {
    return this.state.error ? this.props.fallback(this.state.error, this.retry) : this.props.children
  }
}

/** The fallback of a panel: what went wrong, and a way to try again. `className` keeps the panel's place in the layout. */
export function PanelError({ name, error, retry, className = '' }: { name: string; error: Error; retry(): void; className?: string }): React.JSX.Element {
  return (
    <div className={`${className} panel-error`} role="alert" data-testid="panel-error">
      <p>
        The {name} could not be shown: {error.message}
      </p>
      <button className="button small" onClick={retry}>
        Try again
      </button>
    </div>
  )
}
