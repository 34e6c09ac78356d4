import { defineJournalScenarios } from '../scenarios/journal-scenarios.ts'
import { describeMatrix } from '../support/matrix.ts'

describeMatrix('Request journal and contract coverage', defineJournalScenarios)
