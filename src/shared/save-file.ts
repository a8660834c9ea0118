import { z } from 'zod'

// Saving an export (a chat as Markdown, a table as CSV, a chart as PNG): in the desktop app through the
// native save dialog (IPC `glassbox:saveFile`), in web mode as a browser download.

export const saveFileInput = z.strictObject({
  /** File name offered in the dialog; the user may change it. Only a name, never a path. */
  suggestedName: z
    .string()
    .min(1)
    .max(200)
    .refine((name) => !/[/\\\0]/.test(name), 'must be a file name, not a path'),
  /** Text (utf8) or binary content (base64); 50 MB at most. */
  content: z.string().max(70_000_000),
  encoding: z.enum(['utf8', 'base64']),
  /** Shown as the dialog's file type filter, e.g. { name: 'CSV', extensions: ['csv'] }. */
  filter: z.strictObject({ name: z.string().min(1).max(50), extensions: z.array(z.string().regex(/^[a-z0-9]{1,10}$/)).min(1).max(5) })
})

export type SaveFileInput = z.infer<typeof saveFileInput>
