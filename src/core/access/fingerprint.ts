/**
 * A short, stable, non-reversible label for a secret, for logs and the
 * request journal: 8 hex digits of the 32-bit FNV-1a hash.
 *
 * @example
 * fingerprint('psk_free_demo') // e.g. 'key#1f3a9c02'
 */
export function fingerprint(secret: string): string {
  let hash = 0x811c9dc5
  for (let index = 0; index < secret.length; index++) {
    hash ^= secret.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  return `key#${(hash >>> 0).toString(16).padStart(8, '0')}`
}
