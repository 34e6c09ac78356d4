import { describe, expect, it } from 'vitest'
import { fingerprint } from '../../../src/core/access/fingerprint.ts'
import { createSecretScrubber, isSecretName, redactHeader, redactQuery, redactUrl } from '../../../src/core/journal/journal-redaction.ts'

// Issue 26: redaction missed Ocp-Apim-Subscription-Key, X-JWT-Assertion and the query parameters sig and code.

describe('the one redaction rule', () => {
  it('knows the credential headers of API gateways and the signed-URL query names', () => {
    expect(redactHeader('ocp-apim-subscription-key', 's3cret')).toBe('[redacted]')
    expect(redactHeader('x-jwt-assertion', 'eyJ.s3cret')).toBe('[redacted]')
    expect(redactQuery('sv=2024&sig=s3cret&se=1')).toBe('sv=2024&sig=[redacted]&se=1')
    expect(redactQuery('code=s3cret&state=1')).toBe('code=[redacted]&state=1')
    // Whole names only: a zip code is no secret.
    expect(redactQuery('zipcode=75001&design=x')).toBe('zipcode=75001&design=x')
    expect(isSecretName('Content-Type')).toBe(false)
  })

  it('redacts the query and user info of a URL, and drops its fragment', () => {
    expect(redactUrl('/v1/pets?limit=5&api_key=s3cret')).toBe('/v1/pets?limit=5&api_key=[redacted]')
    expect(redactUrl('https://me:pw@example.com/v1?x=1#access_token=s3cret')).toBe('https://[redacted]@example.com/v1?x=1')
  })

  // Issue 41: the journal's own filters name a parameter or header (`query.key=…`, `header.x-sig:contains=…`); the value
  // they carry is the credential they look for, and the request log showed `query.key`, `query.sig`, `query.code` as sent.
  it('redacts a journal filter on a credential-named parameter or header, and only that', () => {
    expect(redactUrl('/__sim/requests?query.key=s3cret&query.sig=s3&query.code=c0de&query.limit=5')).toBe(
      '/__sim/requests?query.key=[redacted]&query.sig=[redacted]&query.code=[redacted]&query.limit=5',
    )
    expect(redactQuery('header.sig:contains=s3&header.x-id:contains=1&body.code=7')).toBe(
      'header.sig:contains=[redacted]&header.x-id:contains=1&body.code=7',
    )
    expect(isSecretName('query.zipcode')).toBe(false)
    expect(isSecretName('header.Key')).toBe(true)
  })

  it('replaces a key in free text by its fingerprint, URL-encoded too, and shows demo keys', () => {
    const scrub = createSecretScrubber(['my/own+key==', 'demo-pro-key'])
    expect(scrub('a my/own+key== b my%2Fown%2Bkey%3D%3D c demo-pro-key')).toBe(
      `a ${fingerprint('my/own+key==')} b ${fingerprint('my/own+key==')} c demo-pro-key`,
    )
  })
})
