/** A problem with the user's input or environment: printed as one line on stderr, exit code 1, no stack. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1
  ) {
    super(message)
    this.name = 'CliError'
  }
}
