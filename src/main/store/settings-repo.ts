import * as z from '../../shared/zod-mini'
import { once } from '../../shared/once'
import { SERVER_KINDS, type Settings } from '../../shared/api'
import type { StoreContext } from './context'
import type { ProjectsRepo } from './projects-repo'
import { text, toJson, toRow } from './row'
import { machineTimezone } from '../machine-timezone'

/** Settings of the machine (the model server, the user's timezone) versus settings of one project. */
const GLOBAL_KEYS = new Set<keyof Settings>(['endpoint', 'endpoints', 'model', 'memoryModel', 'timezone'])

export const DEFAULT_MEMORY_BUDGET = 1000

export function defaultSettings(): Settings {
  return {
    endpoints: [],
    endpoint: null,
    model: null,
    memoryModel: null,
    testMode: false,
    channel: null,
    timezone: machineTimezone(),
    memoryEnabled: true,
    memoryBudget: DEFAULT_MEMORY_BUDGET,
    contextWindow: null
  }
}

// A stored value that no longer fits its key (hand-edited, or from an older build) falls back to the default.
// Made when a stored setting is first read: a store nobody changed a setting in has none.
const settingsSchema = once(() =>
  z.partial(
    z.object({
      endpoint: z.nullable(z.string()),
      endpoints: z.array(z.object({ preset: z.enum(SERVER_KINDS), url: z.string(), apiKey: z.optional(z.string()) })),
      model: z.nullable(z.string()),
      memoryModel: z.nullable(z.string()),
      testMode: z.boolean(),
      channel: z.nullable(z.string()),
      timezone: z.string(),
      memoryBudget: z.number().check(z.int(), z.minimum(0)),
      contextWindow: z.nullable(z.number().check(z.int(), z.positive()))
    })
  )
)

export class SettingsRepo {
  constructor(
    private readonly context: StoreContext,
    private readonly projects: ProjectsRepo
  ) {}

  /** A raw value (parsed JSON) for `key`, global when `projectId` is null; undefined when unset. */
  getValue(key: string, projectId: number | null): unknown {
    const value = this.context.read(() =>
      this.context
        .statement(`SELECT value_json FROM settings WHERE ifnull(project_id, 0) = ifnull(?, 0) AND key = ?`)
        .get(projectId, key)
    )
    return value === undefined ? undefined : JSON.parse(text(toRow(value), 'value_json'))
  }

  setValue(key: string, value: unknown, projectId: number | null): void {
    this.context.write(() => {
      this.context
        .statement(`DELETE FROM settings WHERE ifnull(project_id, 0) = ifnull(?, 0) AND key = ?`)
        .run(projectId, key)
      if (value !== undefined)
        this.context
          .statement(`INSERT INTO settings (project_id, key, value_json) VALUES (?, ?, ?)`)
          .run(projectId, key, toJson(value))
    })
  }

  /** Defaults, overlaid by global settings, overlaid by the project's (when a project is open). */
  read(projectId: number | null): Settings {
    const settings = defaultSettings()
    const rows = this.context.read(() =>
      this.context
        .statement(`SELECT key, value_json FROM settings WHERE project_id IS NULL OR project_id = ? ORDER BY project_id NULLS FIRST`)
        .all(projectId)
    )
    const stored: Record<string, unknown> = {}
    for (const value of rows) {
      const row = toRow(value)
      stored[text(row, 'key')] = JSON.parse(text(row, 'value_json'))
    }
    for (const [key, value] of Object.entries(stored)) {
      const one = settingsSchema().safeParse({ [key]: value })
      if (one.success) Object.assign(settings, one.data)
    }
    if (projectId !== null) settings.memoryEnabled = this.projects.get(projectId).memoryEnabled
    return settings
  }

  /** Saves the given fields (machine-wide ones globally, the rest for the project) and returns the result. */
  update(projectId: number | null, patch: Partial<Settings>): Settings {
    this.context.write(() => {
      for (const [key, value] of Object.entries(patch)) {
        if (value === undefined) continue
        if (key === 'memoryEnabled') {
          if (projectId !== null && typeof value === 'boolean') this.projects.setMemoryEnabled(projectId, value)
          continue
        }
        const global = projectId === null || GLOBAL_KEYS.has(settingKey(key))
        this.setValue(key, value, global ? null : projectId)
      }
    })
    return this.read(projectId)
  }
}

function settingKey(key: string): keyof Settings {
  const keys: (keyof Settings)[] = [
    'endpoint',
    'endpoints',
    'model',
    'memoryModel',
    'testMode',
    'channel',
    'timezone',
    'memoryEnabled',
    'memoryBudget',
    'contextWindow'
  ]
  const match = keys.find((candidate) => candidate === key)
  if (!match) throw new Error(`unknown setting '${key}'`)
  return match
}
