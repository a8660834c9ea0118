import { setThemeChoice, useThemeChoice, type ThemeChoice } from '../../state/theme'

const CHOICES: [ThemeChoice, string][] = [
  ['system', 'Follow the system'],
  ['light', 'Light'],
  ['dark', 'Dark']
]

/** Light, dark, or whatever the operating system uses (`prefers-color-scheme`). */
export function AppearanceSettings(): React.JSX.Element {
  const theme = useThemeChoice()
  return (
    <fieldset className="appearance" data-testid="theme-choice">
      <legend>Appearance</legend>
      {CHOICES.map(([value, label]) => (
        <label key={value} className="radio">
          <input type="radio" name="theme" value={value} checked={theme === value} onChange={() => setThemeChoice(value)} />
          {label}
        </label>
      ))}
    </fieldset>
  )
}
