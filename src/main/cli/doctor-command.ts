import type { CliIo } from '../cli'
export async function run(_argv: string[], io: CliIo): Promise<number> {
  io.stderr('doctor: not yet\n')
  return 1
}
