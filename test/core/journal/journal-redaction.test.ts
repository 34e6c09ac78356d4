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

  it('replaces a key in free text by its fingerprint, URL-encoded too, and shows demo keys', () => {
    const scrub = createSecretScrubber(['my/own+key==', 'demo-pro-key'])
    expect(scrub('a my/own+key== b my%2Fown%2Bkey%3D%3D c demo-pro-key')).toBe(
      `a ${fingerprint('my/own+key==')} b ${fingerprint('my/own+key==')} c demo-pro-key`,
    )
  })
})
