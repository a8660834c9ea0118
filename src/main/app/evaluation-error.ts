/** An evaluation that cannot start: no model to evaluate (none configured or detected, or none serves the one asked for), no such case, or one already running. */
export class EvaluationError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'EvaluationError'
  }
}
