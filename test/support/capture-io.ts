import type { CliIo } from '../../src/main/cli'

/** A CliIo that keeps what a command printed, for CLI tests run in-process. */
export function captureIo(): { io: CliIo; out: () => string; err: () => string } {
  let out = ''
  let err = ''
  return { io: { stdout: (text) => void (out += text), stderr: (text) => void (err += text) }, out: () => out, err: () => err }
}

/** Runs `glassbox <argv>` in-process, through the same dispatcher as the binary. */
export async function runCli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { main } = await import('../../src/main/cli')
  const { io, out, err } = captureIo()
  const code = await main(argv, io)
  return { code, stdout: out(), stderr: err() }
}
