import { statSync } from 'node:fs'
import { ContextWindowTooSmallError } from '../prompt/budget'
import { AttachmentError } from '../prompt/user'
import { MessageInputError } from '../app/message-inputs'
import { StoreError } from '../store/errors'
import type { Glassbox } from '../app/create-glassbox'
import { CliError } from './cli-error'

// Options and error handling the commands share.

/** --project must name an existing folder. */
export function requireProject(project: string | undefined): string {
  if (!project) throw new CliError('--project DIR is required (the project folder to open).')
  let isFolder = false
  try {
    isFolder = statSync(project).isDirectory()
  } catch {
    throw new CliError(`--project ${project}: no such folder.`)
  }
  if (!isFolder) throw new CliError(`--project ${project}: not a folder.`)
  return project
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

const USER_FACING_ERRORS = [ContextWindowTooSmallError, AttachmentError, MessageInputError, StoreError]

function asCliError(error: unknown): unknown {
  if (error instanceof CliError) return error
  if (USER_FACING_ERRORS.some((kind) => error instanceof kind)) return new CliError(error instanceof Error ? error.message : String(error))
  return error
}
