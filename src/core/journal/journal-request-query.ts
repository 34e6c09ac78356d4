import { checkLength, cut, requestFilterLimits, type HeaderMatch, type RequestPartsFilter } from './journal-request-filter.ts'

// The request-part filters in a query string (`GET /__sim/requests?body.name=Rex&header.x-id=abc`), read and written
// back (a page's `next`). Names carry the part and, for a header, how it is matched after a `:`, which no header
// name has: `body`, `body.<path>`, `header.<name>`, `header.<name>:contains`, `header.<name>:present`, `query.<name>`.

/** The query string's names of these filters (`body`, `body.name`, `header.x-id`, `header.x-id:contains`, `query.limit`). */
export const requestFilterParameters = [
  'body',
  'body.<path>',
  'header.<name>',
  'header.<name>:contains',
  'header.<name>:present',
  'query.<name>',
]

/** A request-part filter being read from a query string: what {@link addRequestParameter} fills. */
export interface RequestPartsDraft {
  body?: unknown
  bodyFields?: Record<string, string>
  headers?: Record<string, HeaderMatch>
  query?: Record<string, string>
  /** How many filters were read so far. */
  count?: number
}

/**
 * Reads one query parameter into `draft` when it is a request-part filter (`body={"name":"Rex"}`, `body.name=Rex`,
 * `header.x-id=abc`, `header.x-id:contains=ab`, `header.x-id:present=true`, `query.limit=5`); returns whether it was.
 * A value that is not one throws a `RangeError`.
 */
export function addRequestParameter(name: string, value: string, draft: RequestPartsDraft): boolean {
  if (name === 'body') {
    checkLength('body', value)
    try {
      draft.body = JSON.parse(value)
    } catch {
      throw new RangeError(`body must be JSON, such as {"name":"Rex"} (got ${cut(JSON.stringify(value))})`)
    }
    return true
  }
  const dot = name.indexOf('.')
  const prefix = dot === -1 ? name : name.slice(0, dot)
  const rest = name.slice(dot + 1)
  if (dot === -1 || (prefix !== 'body' && prefix !== 'header' && prefix !== 'query')) return false
  // Counted as they come: a query of 10,000 filters is refused at the 33rd, not read whole.
  draft.count = (draft.count ?? 0) + 1
  if (draft.count > requestFilterLimits.maxFilters)
    throw new RangeError(`At most ${requestFilterLimits.maxFilters} body, header and query filters are taken at once`)
  if (prefix === 'body') {
    draft.bodyFields ??= Object.create(null) as Record<string, string>
    draft.bodyFields[rest] = value
  } else if (prefix === 'query') {
    draft.query ??= Object.create(null) as Record<string, string>
    draft.query[rest] = value
  } else {
    const colon = rest.lastIndexOf(':')
    const header = (colon === -1 ? rest : rest.slice(0, colon)).toLowerCase()
    const kind = colon === -1 ? '' : rest.slice(colon + 1)
    if (draft.headers !== undefined && Object.hasOwn(draft.headers, header))
      throw new RangeError(`header.${cut(header)} is given more than once`)
    let match: HeaderMatch
    if (kind === '') match = value
    else if (kind === 'contains') match = { contains: value }
    else if (kind === 'present' && (value === 'true' || value === 'false')) match = { present: value === 'true' }
    else
      throw new RangeError(
        `${cut(name)}: a header filter is header.<name>=value, header.<name>:contains=text or header.<name>:present=true|false`,
      )
    draft.headers ??= Object.create(null) as Record<string, HeaderMatch>
    draft.headers[header] = match
  }
  return true
}

/** The query parameters of a request-part filter, in the order {@link addRequestParameter} reads them back. */
export function requestParameters(filter: RequestPartsFilter): Array<[string, string]> {
  const parameters: Array<[string, string]> = []
  if (filter.body !== undefined) parameters.push(['body', JSON.stringify(filter.body)])
  for (const [path, value] of Object.entries(filter.bodyFields ?? {}))
    parameters.push([`body.${path}`, typeof value === 'string' ? value : JSON.stringify(value)])
  for (const [name, match] of Object.entries(filter.headers ?? {})) {
    if (typeof match === 'string') parameters.push([`header.${name}`, match])
    else if ('contains' in match) parameters.push([`header.${name}:contains`, match.contains])
    else parameters.push([`header.${name}:present`, String(match.present)])
  }
  for (const [name, value] of Object.entries(filter.query ?? {})) parameters.push([`query.${name}`, value])
  return parameters
}
