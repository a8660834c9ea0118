import { afterEach, beforeEach, expect, it } from 'vitest'
import type { Store } from './open-store'
import { defaultSettings } from './settings-repo'
import { openTempStore } from './test-store'

let store: Store
let cleanup: () => void
beforeEach(() => ({ store, cleanup } = openTempStore()))
afterEach(() => cleanup())

it('starts from the defaults', () => {
  expect(store.settings.read(null)).toEqual(defaultSettings())
})

it('keeps machine settings global and the rest per project', () => {
  const shop = store.projects.ensure('/data/shop').id
  const other = store.projects.ensure('/data/other').id
  store.settings.update(shop, { endpoint: 'http://127.0.0.1:8080/v1', testMode: true, memoryBudget: 500, memoryEnabled: false })
  expect(store.settings.read(shop)).toMatchObject({ endpoint: 'http://127.0.0.1:8080/v1', testMode: true, memoryBudget: 500, memoryEnabled: false })
  expect(store.settings.read(other)).toMatchObject({ endpoint: 'http://127.0.0.1:8080/v1', testMode: false, memoryBudget: 1000, memoryEnabled: true })
  expect(store.projects.get(shop).memoryEnabled).toBe(false)
})

it('falls back to the default for a stored value of the wrong type', () => {
  store.settings.setValue('memoryBudget', 'lots', null)
  expect(store.settings.read(null).memoryBudget).toBe(1000)
})

it('reads and clears raw values', () => {
  store.settings.setValue('recentProjects', ['/a', '/b'], null)
  expect(store.settings.getValue('recentProjects', null)).toEqual(['/a', '/b'])
  store.settings.setValue('recentProjects', undefined, null)
  expect(store.settings.getValue('recentProjects', null)).toBeUndefined()
})
