import { createRequire } from 'node:module'

// Node's built-ins load on first require, at ~0.5–3 ms each (child_process brings net and dgram with it). Those
// only some commands use are required where they are used, so `glassbox prompt` never loads them; net loads
// with the first look-up of a model server, not with the code.

const load = createRequire(import.meta.url)

export const childProcess = (): typeof import('node:child_process') => load('node:child_process')
export const workerThreads = (): typeof import('node:worker_threads') => load('node:worker_threads')
export const net = (): typeof import('node:net') => load('node:net')
export const readlinePromises = (): typeof import('node:readline/promises') => load('node:readline/promises')
