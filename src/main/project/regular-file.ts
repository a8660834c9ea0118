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

/** Files below this size can be read by readSmallFileSync. */
export const SMALL_FILE_BYTES = 64 * 1024

/** readSmallFileSync's buffer, shared: each caller has decoded what it read before the next read. */
let scratch: Buffer | null = null

/**
 * A small regular file's bytes with one read and no stat (a stat costs more than reading a small file), or
 * null when one read cannot tell and readRegularFileSyncWithInfo must: nothing came (an empty file, or a pipe
 * or device with nothing to give), the buffer filled (a bigger file, or a device that streams), or the open or
 * the read failed (a symlink as the last part, a folder). The read is bounded, so a pipe or a device cannot
 * block or flood it: no stat tells a pipe from a file here, so it is for paths the caller knows were regular
 * files when listed (the project walk's file types), where a swap since would find one bounded read. Only
 * where a read of a regular file returns all of it up to the end (a local filesystem), so the bytes are the
 * whole file. They are a view of a shared buffer, valid until the next call.
 */
export function readSmallFileSync(path: string, maxBytes: number): Buffer | null {
  let fd: number
  try {
    fd = openSync(path, NONBLOCKING_READ | (constants.O_NOFOLLOW ?? 0))
  } catch {
    return null
  }
  try {
    scratch ??= Buffer.allocUnsafeSlow(SMALL_FILE_BYTES)
    // One byte over the cap tells a file that must be cut; the full read does that.
    const limit = Math.min(SMALL_FILE_BYTES, maxBytes + 1)
    const bytesRead = readSync(fd, scratch, 0, limit, 0)
    return bytesRead === 0 || bytesRead === limit ? null : scratch.subarray(0, bytesRead)
  } catch {
    return null
  } finally {
    closeSync(fd)
  }
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
