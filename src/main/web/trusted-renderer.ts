import { pathToFileURL } from 'node:url'

/** True when a frame's URL is our renderer: the built index.html (file://) or the dev server's origin. */
export function isTrustedRendererUrl(url: string, rendererIndexFile: string, devServerUrl: string | undefined): boolean {
  if (devServerUrl) {
    let origin: string
    try {
      origin = new URL(devServerUrl).origin
    } catch {
      origin = ''
    }
    if (origin && (url === origin || url.startsWith(`${origin}/`))) return true
  }
  return url.split(/[?#]/)[0] === pathToFileURL(rendererIndexFile).href
}
