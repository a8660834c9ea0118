import { createElement } from 'react'
import { createRoot } from 'react-dom/client'
import { seriesColor } from '../components/chat/chart-palette'
import type { ChartSpec } from '../state/tool-data'

// A chart as a PNG: the same drawing as on screen, rendered off-screen at a fixed size on a white
// background (light colours, so it reads in any document), with its title and series legend painted on.

const WIDTH = 720
const HEIGHT = 300
const SCALE = 2

/** PNG data URL of the chart, or null when it has nothing to draw. */
export async function chartToPng(spec: ChartSpec): Promise<string | null> {
  if (!spec.table || spec.table.rows.length === 0) return null
  const { ChartDrawing } = await import('../components/chat/ChartView')
  const host = document.createElement('div')
  host.style.cssText = `position: fixed; left: -10000px; top: 0; width: ${WIDTH}px; height: ${HEIGHT}px; background: #fff;`
  host.setAttribute('aria-hidden', 'true')
  document.body.append(host)
  const root = createRoot(host)
  try {
    root.render(createElement(ChartDrawing, { spec, width: WIDTH, height: HEIGHT }))
    const svg = await waitForSvg(host)
    if (!svg) return null
    return await paint(svg, spec)
  } finally {
    root.unmount()
    host.remove()
  }
}

async function waitForSvg(host: HTMLElement): Promise<SVGSVGElement | null> {
  for (let frame = 0; frame < 30; frame++) {
    const svg = host.querySelector<SVGSVGElement>('svg.recharts-surface, .big-chart svg')
    if (svg && svg.querySelector('.recharts-layer, path')) return svg
    await new Promise((done) => requestAnimationFrame(() => done(null)))
  }
  return null
}

async function paint(svg: SVGSVGElement, spec: ChartSpec): Promise<string> {
  const clone = svg.cloneNode(true) as SVGSVGElement
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg')
  clone.setAttribute('width', String(WIDTH))
  clone.setAttribute('height', String(HEIGHT))
  clone.setAttribute('font-family', 'Helvetica, Arial, sans-serif')
  const url = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(clone)], { type: 'image/svg+xml' }))
  try {
    const image = new Image()
    image.src = url
    await image.decode()
    const titleHeight = 36
    const legendHeight = 28
    const canvas = document.createElement('canvas')
    canvas.width = WIDTH * SCALE
    canvas.height = (HEIGHT + titleHeight + legendHeight) * SCALE
    const context = canvas.getContext('2d')
    if (!context) throw new Error('This browser cannot draw to a canvas.')
    context.scale(SCALE, SCALE)
    context.fillStyle = '#ffffff'
    context.fillRect(0, 0, WIDTH, HEIGHT + titleHeight + legendHeight)
    context.fillStyle = '#1d2330'
    context.font = '600 15px Helvetica, Arial, sans-serif'
    context.fillText(spec.title, 12, 24, WIDTH - 24)
    context.drawImage(image, 0, titleHeight, WIDTH, HEIGHT)
    let x = 16
    context.font = '12px Helvetica, Arial, sans-serif'
    spec.series.forEach((series, index) => {
      context.fillStyle = seriesColor(index, series.color)
      context.fillRect(x, HEIGHT + titleHeight + 8, 10, 10)
      context.fillStyle = '#1d2330'
      context.fillText(series.label, x + 14, HEIGHT + titleHeight + 17)
      x += 28 + context.measureText(series.label).width
    })
    return canvas.toDataURL('image/png')
  } finally {
    URL.revokeObjectURL(url)
  }
}
