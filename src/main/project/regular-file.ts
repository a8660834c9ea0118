import { closeSync, constants, fstatSync, openSync, promises as fsPromises, readSync } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'

// Only regular files are ever opened for reading. A named pipe (FIFO) blocks `open` until a writer comes,
// which on the main thread freezes the app and in libuv's pool eats one of its four threads for good; a
// device can stream without end. Opening with O_NONBLOCK returns at once for a pipe too, and the descriptor
// is then checked with fstat — checking the path first and opening after would leave a window to swap it.

const NONBLOCKING_READ = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)

/** Whether readRegularFileSyncWithInfo can refuse a symlink in the open itself (not on Windows). */
export const CAN_REFUSE_LINK_ON_OPEN = constants.O_NOFOLLOW !== undefined

/** The path is something other than a regular file (pipe, socket, device, folder). */
export class NotRegularFileError extends Error {
  readonly code = 'ENOTREGULAR'
  constructor(readonly path: string) {
    super('it is not a regular file (a pipe, socket, device or folder); only regular files are read')
    this.name = 'NotRegularFileError'
  }
}

/** Opens `path` for reading only if it is a regular file; throws NotRegularFileError otherwise. */
export async function openRegularFile(path: string): Promise<FileHandle> {
  const handle = await fsPromises.open(path, NONBLOCKING_READ)
  try {
    if (!(await handle.stat()).isFile()) throw new NotRegularFileError(path)
    return handle
  } catch (error) {
    await handle.close()
    throw error
  }
}

/** Reads at most `maxBytes` of a regular file (from the start); throws NotRegularFileError otherwise. */
export async function readRegularFile(path: string, maxBytes = Number.MAX_SAFE_INTEGER): Promise<{ bytes: Buffer; size: number; mtimeMs: number }> {
  const handle = await openRegularFile(path)
  try {
    const info = await handle.stat()
    const length = Math.min(info.size, maxBytes)
    const bytes = Buffer.alloc(length)
    let filled = 0
    while (filled < length) {
      const { bytesRead } = await handle.read(bytes, filled, length - filled, filled)
      if (bytesRead === 0) break
      filled += bytesRead
    }
    return { bytes: bytes.subarray(0, filled), size: info.size, mtimeMs: info.mtimeMs }
  } finally {
    await handle.close()
  }
}

/** Synchronous twin of readRegularFile, for the few callers that must stay synchronous. */
export function readRegularFileSync(path: string, maxBytes = Number.MAX_SAFE_INTEGER): Buffer {
  return readRegularFileSyncWithInfo(path, maxBytes).bytes
}

/**
 * readRegularFileSync with the file's size and mtime, from the descriptor that was read. `refuseLink` makes the
 * open itself fail (ELOOP) when the path's last part is a symlink (see CAN_REFUSE_LINK_ON_OPEN).
 */
export function readRegularFileSyncWithInfo(
  path: string,
  maxBytes = Number.MAX_SAFE_INTEGER,
  options: { refuseLink?: boolean } = {}
): { bytes: Buffer; size: number; mtimeMs: number } {
  const fd = openSync(path, options.refuseLink ? NONBLOCKING_READ | (constants.O_NOFOLLOW ?? 0) : NONBLOCKING_READ)
  try {
    const info = fstatSync(fd)
    if (!info.isFile()) throw new NotRegularFileError(path)
    const length = Math.min(info.size, maxBytes)
    // Not zero-filled: only the bytes read are handed on.
    const bytes = Buffer.allocUnsafe(length)
    let filled = 0
    while (filled < length) {
      const bytesRead = readSync(fd, bytes, filled, length - filled, filled)
      if (bytesRead === 0) break
      filled += bytesRead
    }
    return { bytes: bytes.subarray(0, filled), size: info.size, mtimeMs: info.mtimeMs }
  } finally {
    closeSync(fd)
  }
}
