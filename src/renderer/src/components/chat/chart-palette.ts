/** Series colours, on screen and in exported images (readable on light and dark backgrounds). */
export const CHART_PALETTE = ['#2f6fde', '#17a589', '#e67e22', '#8e44ad', '#c0392b', '#7f8c8d']

export function seriesColor(index: number, own?: string): string {
  return own ?? CHART_PALETTE[index % CHART_PALETTE.length]
}
