// The Prometheus text exposition format (version 0.0.4), written by hand: a few families of counters, gauges and
// histograms need no library, and the writer costs nothing per request (it runs only when scraped).

/** The Content-Type of the exposition, as Prometheus asks for it. */
export const prometheusContentType = 'text/plain; version=0.0.4; charset=utf-8'

export type MetricType = 'counter' | 'gauge' | 'histogram'

/** One metric family: its name, type and help text, declared once (metric-families.ts) and written from there. */
export interface MetricFamily {
  readonly name: string
  readonly type: MetricType
  readonly help: string
}

export type Labels = Readonly<Record<string, string>>

/** What a histogram holds: `counts[i]` observations at most `bounds[i]` (not cumulative), then the rest, and their sum. */
export interface HistogramReading {
  readonly bounds: readonly number[]
  readonly counts: ArrayLike<number>
  readonly sum: number
}

/** The samples of one scrape, grouped by family, then written as one text in the families' order. */
export interface Exposition {
  /** One sample of a counter or gauge. */
  sample(family: MetricFamily, labels: Labels, value: number): void
  /** A histogram's buckets (cumulative, as the format has them), sum and count. */
  histogram(family: MetricFamily, labels: Labels, histogram: HistogramReading): void
  text(): string
}

export function createExposition(families: readonly MetricFamily[]): Exposition {
  const lines = new Map<string, string[]>(families.map((family) => [family.name, []]))
  const linesOf = (family: MetricFamily) => {
    const found = lines.get(family.name)
    if (found === undefined) throw new TypeError(`Metric family ${family.name} is not declared`)
    return found
  }
  return {
    sample(family, labels, value) {
      linesOf(family).push(`${family.name}${labelText(labels)} ${numberText(value)}`)
    },
    histogram(family, labels, { bounds, counts, sum }) {
      const out = linesOf(family)
      let cumulative = 0
      for (let index = 0; index < bounds.length; index++) {
        cumulative += counts[index] ?? 0
        out.push(`${family.name}_bucket${labelText({ ...labels, le: numberText(bounds[index]!) })} ${cumulative}`)
      }
      cumulative += counts[bounds.length] ?? 0
      out.push(`${family.name}_bucket${labelText({ ...labels, le: '+Inf' })} ${cumulative}`)
      out.push(`${family.name}_sum${labelText(labels)} ${numberText(sum)}`)
      out.push(`${family.name}_count${labelText(labels)} ${cumulative}`)
    },
    text() {
      let text = ''
      for (const family of families) {
        text += `# HELP ${family.name} ${family.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}\n# TYPE ${family.name} ${family.type}\n`
        for (const line of lines.get(family.name)!) text += `${line}\n`
      }
      return text
    },
  }
}

/** `{a="1",b="2"}`, values escaped as the format says (backslash, double quote, line feed); nothing for no labels. */
function labelText(labels: Labels): string {
  const names = Object.keys(labels)
  if (names.length === 0) return ''
  return `{${names.map((name) => `${name}="${labels[name]!.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`).join(',')}}`
}

function numberText(value: number): string {
  if (Number.isNaN(value)) return 'NaN'
  if (value === Number.POSITIVE_INFINITY) return '+Inf'
  if (value === Number.NEGATIVE_INFINITY) return '-Inf'
  return String(value)
}
