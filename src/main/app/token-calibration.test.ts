import { describe, expect, it } from 'vitest'
import { openTempStore } from '../store/test-store'
import { TokenCalibration } from './token-calibration'

const m = { baseUrl: 'http://127.0.0.1:8080/v1', model: 'm' }
const other = { baseUrl: 'http://127.0.0.1:8080/v1', model: 'other' }

describe('TokenCalibration', () => {
  it('starts at 1', () => {
    expect(new TokenCalibration().scale(m)).toBe(1)
  })

  it('scales up when the server counted more tokens than estimated', () => {
    const calibration = new TokenCalibration()
    calibration.record(m, 1000, 1200)
    expect(calibration.scale(m)).toBeCloseTo(1.2)
  })

  it('never scales down (a cached prompt reports fewer tokens)', () => {
    const calibration = new TokenCalibration()
    calibration.record(m, 1000, 100)
    expect(calibration.scale(m)).toBe(1)
  })

  it('moves halfway towards each reported usage, capped at 3; an exact count sets the scale', () => {
    const calibration = new TokenCalibration()
    calibration.record(m, 1000, 1200)
    calibration.record(m, 1000, 10_000)
    expect(calibration.scale(m)).toBeCloseTo(2.1)
    expect(calibration.scale(other)).toBe(1)
    calibration.recordExact(m, 2776, 3564)
    expect(calibration.scale(m)).toBeCloseTo(3564 / 2776)
  })

  it('keeps what it learned in the store, so the next process starts from it', () => {
    const { store, cleanup } = openTempStore()
    try {
      new TokenCalibration(store.tokenScales).recordExact(m, 2776, 3564)
      const next = new TokenCalibration(store.tokenScales)
      expect(next.scale(m)).toBeCloseTo(1.284, 3)
      expect(next.scale(other)).toBe(1)
      expect(store.tokenScales.get(m.baseUrl, m.model)).toEqual({ scale: 3564 / 2776, observations: 1 })
    } finally {
      cleanup()
    }
  })
})
