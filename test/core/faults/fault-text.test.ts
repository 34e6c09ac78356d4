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
  ])('refuses %j, naming the word', (text, message) => {
    expect(() => parseFaultText(text, '/v1')).toThrow(message)
  })
})
