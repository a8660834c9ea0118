import { describe, expect, it } from 'vitest'
import { TokenCalibration } from './token-calibration'

describe('TokenCalibration', () => {
  it('starts at 1', () => {
    expect(new TokenCalibration().scale('m')).toBe(1)
  })

  it('scales up when the server counted more tokens than estimated', () => {
    const calibration = new TokenCalibration()
    calibration.record('m', 1000, 1200)
    expect(calibration.scale('m')).toBeCloseTo(1.2)
  })

  it('never scales down (a cached prompt reports fewer tokens)', () => {
    const calibration = new TokenCalibration()
    calibration.record('m', 1000, 100)
    expect(calibration.scale('m')).toBe(1)
  })

  it('moves halfway towards each new observation, capped at 3', () => {
    const calibration = new TokenCalibration()
    calibration.record('m', 1000, 1200)
    calibration.record('m', 1000, 10_000)
    expect(calibration.scale('m')).toBeCloseTo(2.1)
    expect(calibration.scale('other')).toBe(1)
  })
})
