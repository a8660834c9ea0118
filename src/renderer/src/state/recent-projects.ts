// Recently opened project folders, newest first, kept in this browser profile (desktop: the app's own).
const KEY = 'glassbox-recent-projects'
const MAX = 8

export function loadRecentProjects(): string[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]')
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string').slice(0, MAX) : []
  } catch {
    return []
  }
}

export function rememberProject(path: string): string[] {
  const next = [path, ...loadRecentProjects().filter((item) => item !== path)].slice(0, MAX)
  localStorage.setItem(KEY, JSON.stringify(next))
  return next
}
