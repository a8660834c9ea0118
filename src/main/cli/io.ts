/** Where a command writes: the process's streams, or a capture in tests. */
export interface CliIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
}
