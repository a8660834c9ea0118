import { config } from 'zod/mini'
import en from 'zod/v4/locales/en.js'

// zod/mini builds the same schemas as classic zod (same core, same checks, same messages) with functions in
// place of method chains, so a command loads only what it uses instead of classic zod's whole class hierarchy.
// Classic zod installs its English messages when its first schema is built; zod/mini leaves the locale to its
// caller, and without one every message would read "Invalid input".
if (!config().localeError) config(en())

export * from 'zod/mini'
