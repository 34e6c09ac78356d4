/**
 * The OpenAPI document as it is served: `fixtures/openapi.yaml` with the
 * simulator's own API URL as the first server (tools and generators use the
 * first entry by default), and, for tools that stop at OpenAPI 3.0 (Dredd
 * 14, older generators), the same document labelled 3.0. Pure: plain data
 * in, plain data and text out.
 */

/** A document in both forms, ready to send. */
export interface RenderedDocument {
  readonly json: string
  readonly yaml: string
}

/** The OpenAPI versions the document is served as. */
export type OpenApiVersion = '3.1' | '3.0'

/** What 3.0 readers are told the document is: the last 3.0 release. */
const openApi30Version = '3.0.3'

interface ServerEntry {
  readonly url: string
  readonly [key: string]: unknown
}

/**
 * The document with `apiUrl` (the origin and base path it was asked for at)
 * as its first server, then the specification's own entries (production,
 * staging). The file's placeholder entry for the simulator (`x-petstore-sim`)
 * is the one replaced.
 */
export function renderDocument(yaml: string, document: unknown, apiUrl: string, version: OpenApiVersion): RenderedDocument {
  const source = document as { openapi?: unknown; servers?: ServerEntry[] }
  const servers: ServerEntry[] = [
    {
      url: apiUrl,
      description: 'petstore-sim: the simulator that served this document, at its origin and base path.',
      'x-petstore-sim': true,
    },
    ...(source.servers ?? []).filter((server) => server['x-petstore-sim'] !== true),
  ]
  let rendered: Record<string, unknown> = { ...(document as Record<string, unknown>), servers }
  let text = replaceTopLevelBlock(yaml, 'servers', yamlBlock('servers', servers))
  if (version === '3.0') {
    // The document is written in the subset of 3.1 that 3.0 reads the same way; this says where it is not.
    const constructs = openApi31Constructs(document)
    if (constructs.length > 0) throw new Error(`The document cannot be served as OpenAPI 3.0: ${constructs.join('; ')}`)
    rendered = { ...rendered, openapi: openApi30Version }
    text = replaceTopLevelBlock(text, 'openapi', `openapi: ${openApi30Version}\n`)
  }
  return { json: JSON.stringify(rendered), yaml: text }
}

/** JSON Schema keywords of OpenAPI 3.1 (2020-12) that a 3.0 reader would ignore or misread. */
const keywords31 = [
  'const',
  'examples',
  'prefixItems',
  '$defs',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contentMediaType',
  'contentEncoding',
  '$schema',
  '$id',
  '$anchor',
  'propertyNames',
  'contains',
] as const

/**
 * Where a document uses OpenAPI 3.1 beyond what 3.0 reads the same way: top-level
 * `webhooks`, `jsonSchemaDialect` or `components.pathItems`; in schemas, a type
 * list (`null`), numeric `exclusiveMinimum`/`exclusiveMaximum`, a keyword of
 * {@link keywords31}, or a `$ref` with siblings (3.0 ignores them). Empty when a
 * 3.0 reader sees the same document.
 */
export function openApi31Constructs(document: unknown): string[] {
  const found: string[] = []
  const top = document as Record<string, unknown>
  for (const key of ['webhooks', 'jsonSchemaDialect']) if (key in top) found.push(`#/${key}`)
  if ('pathItems' in ((top.components as Record<string, unknown> | undefined) ?? {})) found.push('#/components/pathItems')
  const visit = (node: unknown, pointer: string, inSchema: boolean) => {
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) visit(item, `${pointer}/${index}`, inSchema)
      return
    }
    if (typeof node !== 'object' || node === null) return
    const object = node as Record<string, unknown>
    if ('$ref' in object && Object.keys(object).some((key) => key !== '$ref' && !key.startsWith('x-')))
      found.push(`${pointer}: $ref with siblings`)
    if (inSchema) {
      if (Array.isArray(object.type)) found.push(`${pointer}/type: a list of types`)
      for (const key of ['exclusiveMinimum', 'exclusiveMaximum'])
        if (typeof object[key] === 'number') found.push(`${pointer}/${key}: a number`)
      for (const key of keywords31) if (key in object) found.push(`${pointer}/${key}`)
    }
    for (const [key, value] of Object.entries(object)) {
      // Values, not structure: what they hold is data.
      if (key === 'example' || key === 'default' || key === 'enum' || key.startsWith('x-')) continue
      const at = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`
      // Maps whose values are schemas: a schema's properties, the components' schemas.
      if ((inSchema && key === 'properties') || (pointer === '#/components' && key === 'schemas')) {
        for (const [name, schema] of Object.entries(value as Record<string, unknown>)) visit(schema, `${at}/${name}`, true)
      } else visit(value, at, inSchema || key === 'schema')
    }
  }
  visit(document, '#', false)
  return found
}

/**
 * Replaces a top-level key's block (its line and the indented lines under it)
 * in YAML text, keeping the rest byte for byte.
 */
function replaceTopLevelBlock(yaml: string, key: string, block: string): string {
  const lines = yaml.split('\n')
  const start = lines.findIndex((line) => line.startsWith(`${key}:`))
  if (start === -1) throw new Error(`The YAML document has no top-level ${key}`)
  let end = start + 1
  while (end < lines.length && (lines[end]!.startsWith(' ') || lines[end]!.startsWith('#') || lines[end] === '')) end++
  // Blank lines at the block's end belong to what follows.
  while (end > start + 1 && lines[end - 1] === '') end--
  return [...lines.slice(0, start), block.replace(/\n$/, ''), ...lines.slice(end)].join('\n')
}

/** A key and its value as block YAML; strings in JSON form (a subset of YAML's double-quoted style). */
function yamlBlock(key: string, value: unknown): string {
  const out: string[] = []
  const scalar = (item: unknown) => (typeof item === 'string' ? JSON.stringify(item) : String(item))
  const isComposite = (item: unknown) => typeof item === 'object' && item !== null
  const write = (item: unknown, indent: string, prefix: string) => {
    if (Array.isArray(item)) {
      if (item.length === 0) out[out.length - 1] += ' []'
      for (const element of item) {
        if (isComposite(element)) {
          const entries = Object.entries(element as Record<string, unknown>)
          entries.forEach(([name, inner], index) => {
            const lead = index === 0 ? `${indent}- ` : `${indent}  `
            if (isComposite(inner)) {
              out.push(`${lead}${name}:`)
              write(inner, `${indent}    `, '')
            } else out.push(`${lead}${name}: ${scalar(inner)}`)
          })
        } else out.push(`${indent}- ${scalar(element)}`)
      }
      return
    }
    for (const [name, inner] of Object.entries(item as Record<string, unknown>)) {
      if (isComposite(inner)) {
        out.push(`${indent}${prefix}${name}:`)
        write(inner, `${indent}  `, '')
      } else out.push(`${indent}${prefix}${name}: ${scalar(inner)}`)
    }
  }
  out.push(`${key}:`)
  write(value, '  ', '')
  return `${out.join('\n')}\n`
}
