import { describe, expect, it } from 'vitest'
import { parseFaultText } from '../../../src/core/faults/fault-text.ts'

describe('parseFaultText (the --fault text form)', () => {
  it.each([
    ['listPets 503', { operation: 'listPets', status: 503 }],
    ['GET /v1/pets 503 p=0.2', { method: 'GET', path: '/pets', status: 503, probability: 0.2 }],
    ['get /pets/{petId} empty', { method: 'GET', path: '/pets/{petId}', fault: 'empty' }],
    ['GET /v1 502', { method: 'GET', path: '/', status: 502 }],
    ['createPet reset times=1', { operation: 'createPet', fault: 'reset', times: 1 }],
    ['* delay=100-500 key=demo-free-key', { delay: { min: 100, max: 500 }, key: 'demo-free-key' }],
    ['getPet hang=250', { operation: 'getPet', fault: 'hang', hangMs: 250 }],
    ['  listPets   truncate   probability=.5  ', { operation: 'listPets', fault: 'truncate', probability: 0.5 }],
    ['listPets 503 p=1', { operation: 'listPets', status: 503, probability: 1 }],
    ['listPets 503 p=0.25', { operation: 'listPets', status: 503, probability: 0.25 }],
    ['getPet delay=250', { operation: 'getPet', delay: 250 }],
  ])('reads %j', (text, rule) => {
    expect(parseFaultText(text, '/v1')).toEqual(rule)
  })

  it('keeps a path outside the base path as it is', () => {
    expect(parseFaultText('GET /v2/pets 503', '/v1')).toEqual({ method: 'GET', path: '/v2/pets', status: 503 })
    expect(parseFaultText('GET /v1/pets 503', '')).toEqual({ method: 'GET', path: '/v1/pets', status: 503 })
  })

  it.each([
    ['listPets 503 504', /says status a second time/],
    ['listPets hang hang=5', /says fault a second time/],
    ['listPets p=2', /cannot read "p=2"/],
    ['listPets p=', /cannot read "p="/],
    ['listPets times=0x10', /cannot read "times=0x10"/],
    ['listPets delay=1e3', /cannot read "delay=1e3"/],
    ['listPets key=', /cannot read "key="/],
    ['listPets explode', /cannot read "explode"/],
    ['listPets 5030', /cannot read "5030"/],
    ['listPets 503=1', /cannot read "503=1"/],
    ['listPets 503 q=0.5', /cannot read "q=0.5"/],
    ['listPets 503 times=.5', /cannot read "times=.5"/],
    ['listPets 503 p=.', /cannot read "p=."/],
    ['listPets 503 key', /cannot read "key"/],
    // A method is letters only, and a path starts with a slash: otherwise the first word is an operation's name.
    ['9GET /v1/pets 503', /cannot read "\/v1\/pets"/],
    ['GET9 /v1/pets 503', /cannot read "\/v1\/pets"/],
    ['listPets a/b 503', /cannot read "a\/b"/],
  ])('refuses %j, naming the word', (text, message) => {
    expect(() => parseFaultText(text, '/v1')).toThrow(message)
  })
})
