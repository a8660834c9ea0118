import { fail, pass, type DoctorCheck } from './types'

/** The store (chats, runs, memories, evaluations) can be written. */
export const storeWritable: DoctorCheck = async ({ store }) => {
  const title = 'Store'
  if (store.problem === null) return [pass('store', title, `${store.file} is writable`)]
  return [fail('store', title, `${store.file}: ${store.problem}`, 'Make the folder writable, or point --data-dir (or GLASSBOX_DATA_DIR) at a writable folder.')]
}
