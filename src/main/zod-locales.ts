import en from 'zod/v4/locales/en.js'

// What the bundled command line gives zod in place of its forty-odd locales (scripts/cli-bundle.mjs): zod
// re-exports them all (`z.locales`, `z.core.locales`), 340 KB that every command would load, while Glassbox
// speaks English (zod's default, which zod loads on its own) and never switches locale.

export { en }
