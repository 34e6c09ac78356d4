// Recipe in docs/recipes.md: Storybook with msw-storybook-addon (type-checked; run by storybook.test.ts).
// .storybook/preview.ts:  export default definePreview({ addons: [addonMsw()] })
import type { StoryContext } from 'storybook/internal/csf'
import { createSimulator } from 'petstore-sim'

/** A story's `beforeEach`: this story's API is a fresh simulator. */
export function withPetstore(seed = 1) {
  return ({ msw }: StoryContext) => {
    msw.use(...createSimulator({ seed }).handlers)
  }
}
// export const Catalogue = meta.story({ beforeEach: withPetstore(7) })
