import type { ParseArgsConfig } from 'node:util'

/** Where a command writes: the process's streams, or a capture in tests. */
export interface CliIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
}

/** What every `--json` prints: the value as one line of JSON, which a script reads whole (or line by line). */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value) + '\n'
}

/** A command's options as node:util's parseArgs takes them. */
export type CommandOptions = NonNullable<ParseArgsConfig['options']>
