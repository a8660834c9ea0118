import { errorMessage } from '../../shared/error-message'
// Every way opening or writing the store can fail for a reason the user can act on gets its own class with
// a one-line message: what happened, to which file, and what to do. None of them ever deletes or rewrites data.

export class StoreError extends Error {
  constructor(
    message: string,
    readonly file: string,
    options?: { cause?: unknown }
  ) {
    super(message, options)
    this.name = 'StoreError'
  }
}

/** The file was written by a newer Glassbox (a higher schema version): refuse rather than guess. */
export class StoreFromTheFutureError extends StoreError {
  constructor(
    file: string,
    readonly fileVersion: number,
    readonly knownVersion: number
  ) {
    super(
      `${file} has schema version ${fileVersion}, but this Glassbox only knows up to ${knownVersion}; ` +
        `it was left untouched — update Glassbox or use another --data-dir`,
      file
    )
    this.name = 'StoreFromTheFutureError'
  }
}

/** Another process holds a lock on the database longer than the busy timeout. */
export class StoreBusyError extends StoreError {
  constructor(file: string, cause: unknown) {
    super(`${file} is locked by another process (another Glassbox window or the CLI?); close it and retry`, file, {
      cause
    })
    this.name = 'StoreBusyError'
  }
}

/** The file or its folder cannot be written. */
export class StoreReadOnlyError extends StoreError {
  constructor(file: string, cause: unknown) {
    super(`${file} is read-only (check the file's and its folder's permissions, or use another --data-dir)`, file, {
      cause
    })
    this.name = 'StoreReadOnlyError'
  }
}

/** The file is not an SQLite database, or a damaged one. */
export class StoreCorruptError extends StoreError {
  constructor(file: string, cause: unknown) {
    super(
      `${file} is not a readable Glassbox database (damaged or another kind of file); ` +
        `it was left untouched — move it aside to start a new store`,
      file,
      { cause }
    )
    this.name = 'StoreCorruptError'
  }
}

/** The file or folder cannot be opened at all (missing parent, a folder in the way, permissions). */
export class StoreUnavailableError extends StoreError {
  constructor(file: string, cause: unknown) {
    const reason = errorMessage(cause)
    super(`cannot open ${file}: ${reason}`, file, { cause })
    this.name = 'StoreUnavailableError'
  }
}

/** A lookup by id found nothing (an unknown chat, run or memory id). */
export class StoreNotFoundError extends Error {
  constructor(
    readonly kind: string,
    readonly id: string | number
  ) {
    super(`no ${kind} with id ${id}`)
    this.name = 'StoreNotFoundError'
  }
}

function sqliteCode(error: unknown): string | null {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') return error.code
  return null
}

/** Maps SQLite's error codes to the classes above; anything else is returned unchanged (a bug, not input). */
export function translateSqliteError(error: unknown, file: string): unknown {
  if (error instanceof StoreError) return error
  const code = sqliteCode(error)
  if (code === null) return error
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return new StoreBusyError(file, error)
  if (code.startsWith('SQLITE_READONLY')) return new StoreReadOnlyError(file, error)
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) return new StoreCorruptError(file, error)
  if (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_PERM') || code.startsWith('SQLITE_AUTH'))
    return new StoreUnavailableError(file, error)
  return error
}
