// Not part of the recipes: the stand-in app's page (playwright-demo-app.ts, playwright-cli-app.ts). It lists the pets
// of the API named by its `?api=` parameter and adds Rex on a click.

/** The stand-in app's one page; its POST sends a correlation header, which the CLI recipe asserts on. */
export const demoAppPage = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Pets</title></head>
  <body>
    <p id="quota"></p>
    <ul id="pets"></ul>
    <button id="add">Add Rex</button>
    <script type="module">
      const api = new URLSearchParams(location.search).get('api')
      const headers = { Authorization: 'Bearer demo-pro-key', 'Content-Type': 'application/json' }
      async function render() {
        const response = await fetch(api + '/pets?limit=100', { headers })
        const pets = await response.json()
        document.querySelector('#pets').replaceChildren(...pets.map((pet) => Object.assign(document.createElement('li'), { textContent: pet.id + ' ' + pet.name })))
        document.querySelector('#quota').textContent = response.headers.get('X-RateLimit-Remaining') + ' requests left'
      }
      document.querySelector('#add').addEventListener('click', async () => {
        const correlation = { 'X-Correlation-Id': 'add-rex' }
        await fetch(api + '/pets', { method: 'POST', headers: { ...headers, ...correlation }, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) })
        await render()
      })
      await render()
    </script>
  </body>
</html>`
