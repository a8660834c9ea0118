import { existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { ContextWindowTooSmallError } from '../prompt/budget'
import { AttachmentError } from '../prompt/user'
import { MessageInputError } from '../app/message-inputs'
import { EvaluationError } from '../app/evaluation-error'
import { StoreError } from '../store/errors'
import { InvalidEndpointError } from '../agent/endpoints'
import type { Glassbox } from '../app/create-glassbox'
import { CliError } from './cli-error'
import { errorMessage } from '../../shared/error-message'
import { readlinePromises } from '../lazy-builtin'
import { describeRequest, TrustRequiredError, type TrustGateOptions } from '../trust'

// Options and error handling the commands share.

/** --project must name an existing folder; returns its absolute path. */
export function requireProject(project: string | undefined): string {
  if (!project) throw new CliError('--project DIR is required')
  const root = resolve(project)
  if (!existsSync(root)) throw new CliError(`project folder not found: ${project}`)
  if (!statSync(root).isDirectory()) throw new CliError(`project path is not a folder: ${project}`)
  return root
}

/** Runs `work` with the services open and always closes them; known failures become one-line errors. */
export async function withGlassbox<T>(opening: Promise<Glassbox>, work: (glassbox: Glassbox) => Promise<T>): Promise<T> {
  let glassbox: Glassbox
  try {
    glassbox = await opening
  } catch (error) {
    throw asCliError(error)
  }
  try {
    return await work(glassbox)
  } catch (error) {
    throw asCliError(error)
  } finally {
    await glassbox.close()
  }
}

const USER_FACING_ERRORS = [ContextWindowTooSmallError, AttachmentError, MessageInputError, StoreError, InvalidEndpointError, EvaluationError, TrustRequiredError]

/**
 * How a command decides what the project asks beyond its folder: `--trust-project` approves it (and stores
 * the approval); on a terminal the user is asked yes/no for each request; otherwise it is refused with a
 * message naming it.
 */
export function cliTrust(trustProject: boolean | undefined, io: { stderr: (text: string) => void }): TrustGateOptions {
  if (trustProject) return { approveAll: true }
  if (!process.stdin.isTTY || !process.stderr.isTTY) return {}
  return {
    ask: async (request) => {
      const prompt = readlinePromises().createInterface({ input: process.stdin, output: process.stderr })
      try {
        const answer = await prompt.question(`This project asks to ${describeRequest(request)}.\nApprove it for this project? [y/N] `)
        return /^y(es)?$/i.test(answer.trim())
      } finally {
        prompt.close()
        io.stderr('')
      }
    }
  }
}

function asCliError(error: unknown): unknown {
  if (error instanceof CliError) return error
  if (USER_FACING_ERRORS.some((kind) => error instanceof kind)) return new CliError(errorMessage(error))
  return error
}
