import { createServer } from 'node:net'

/** A loopback port nothing listens on right now: for a server about to start there, or a refused connection. */
export async function unusedLoopbackPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', resolve)
  })
  const address = probe.address()
  const port = typeof address === 'object' && address ? address.port : 0
  await new Promise((resolve) => probe.close(resolve))
  if (port === 0) throw new Error('the operating system gave no loopback port')
  return port
}
