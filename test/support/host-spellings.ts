/**
 * `Host` values, for the Host check (src/core/access/host-policy.ts) in the core's tests and the app's: loopback in
 * the spellings clients send (browsers send what the WHATWG URL parser makes of the URL: `127.1` becomes
 * `127.0.0.1`, `[::ffff:127.0.0.1]` becomes `[::ffff:7f00:1]`, `localhost.` stays), and names that are not loopback,
 * or name nothing.
 */
export const loopbackHosts = [
  'localhost',
  'localhost:4010',
  'LOCALHOST:4010',
  'localhost.',
  'localhost.:4010',
  'app.localhost',
  'app.localhost.:4010',
  '127.0.0.1',
  '127.0.0.1:4010',
  '127.0.0.1.:4010',
  '127.1',
  '127.1:4010',
  '127.255.255.254',
  '2130706433:4010',
  '0x7f.1',
  '[::1]:4010',
  '[0:0:0:0:0:0:0:1]:4010',
  '[::ffff:127.0.0.1]',
  '[::ffff:127.0.0.1]:4010',
  '[::ffff:7f00:1]:4010',
  '[::FFFF:127.1.2.3]:4010',
] as const

/** Not loopback, or no name at all: an empty label (which the URL parser keeps), an address out of range. */
export const foreignHosts = [
  'a..localhost',
  'a..localhost:4010',
  '.localhost',
  'localhost..',
  'app..localhost.',
  'localhost.evil.example',
  'evil-localhost',
  '127.0.0.1.evil.example',
  '127.999.0.1',
  '128.0.0.1',
  '0.0.0.0',
  '[::2]',
  '[::ffff:128.0.0.1]',
  '[::ffff:7f00:1].evil',
  'evil/',
  'a@localhost',
] as const
