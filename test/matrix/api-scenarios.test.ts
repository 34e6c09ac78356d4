import { defineApiScenarios } from '../scenarios/api-scenarios.ts'
import { defineCorsScenarios } from '../scenarios/cors-scenarios.ts'
import { defineErrorStateScenarios } from '../scenarios/error-state-scenarios.ts'
import { describeMatrix } from '../support/matrix.ts'

// The whole API, tested once and run against every lane (see support/matrix.ts).
describeMatrix('Animal Store API', defineApiScenarios)
describeMatrix('Error states on demand', defineErrorStateScenarios)
describeMatrix('CORS', defineCorsScenarios)
