import { describe, expect, it } from 'vitest'
import { shownBodyText, maxPrettyDepth } from '../../src/app/dashboard/script/body-text.ts'
import { maxJsonWalkDepth } from '../../src/core/http/bounded-json.ts'

// Issue 45: the dashboard's request dialog pretty-printed every JSON body with `JSON.stringify(…, null, 2)`; a body
// nested 3,000 deep (6 KB) came out at 18 million characters, and one 5,000 deep overflowed the stack.

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`

describe('the body text of the request dialog', () => {
  it('pretty-prints JSON', () => {
    expect(shownBodyText('{"name":"Rex","tags":["a"]}')).toBe('{\n  "name": "Rex",\n  "tags": [\n    "a"\n  ]\n}')
  })

  it('shows what is not JSON as sent', () => {
    expect(shownBodyText('not json')).toBe('not json')
  })

  it.each([maxPrettyDepth + 1, 3_000, 5_000, 100_000])('shows a body nested %i deep as sent, no longer than it', (depth) => {
    expect(shownBodyText(nested(depth))).toBe(nested(depth))
  })

  it(`pretty-prints one nested ${maxPrettyDepth} deep, the bound`, () => {
    const shown = shownBodyText(nested(maxPrettyDepth))
    expect(shown).not.toBe(nested(maxPrettyDepth))
    expect(JSON.parse(shown)).toEqual(JSON.parse(nested(maxPrettyDepth)))
  })

  it('bounds depth as the core does (maxJsonWalkDepth), one fact the script cannot import', () => {
    expect(maxPrettyDepth).toBe(maxJsonWalkDepth)
  })
})
