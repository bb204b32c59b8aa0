// The pipeline's answer without a promise when nothing in it waits: what the Node server writes at once.
import { describe, expect, it, vi } from 'vitest'
import { createRelayService, type RelayResponse } from '../../src/core/service/mock.js'
import { devtools } from '../../src/devtools/admin.js'

describe('answer', () => {
  const headers = { authorization: 'Bearer relay-mock-token' }
  it('is the answer itself, not a promise, when nothing in the pipeline waits: a lookup, a create, a refusal', async () => {
    const service = await createRelayService()
    const { visit, location } = service.world
    const lookup = service.answer({ method: 'GET', url: `/vehicles?plate=${visit.plate}`, headers })
    expect(lookup).not.toBeInstanceOf(Promise)
    expect(lookup).toEqual(await service.handle({ method: 'GET', url: `/vehicles?plate=${visit.plate}`, headers }))
    const vehicleId = (JSON.parse((lookup as RelayResponse).text) as Array<{ id: string }>)[0].id
    const body = JSON.stringify({
      locationId: location.id,
      vehicleId,
      amount: { amount: visit.amount, currency: visit.currency },
      startedOn: visit.visitStart,
      endedOn: visit.visitEnd,
      status: 'new',
    })
    const created = service.answer({
      method: 'POST',
      url: '/payments',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
    })
    expect(created).toMatchObject({ status: 201 })
    expect(service.answer({ method: 'GET', url: '/vehicles', headers })).toMatchObject({ status: 422 })
    expect(service.journal.size).toBe(4)
  })

  it('is a promise when something waits: the latency asked for, a slow fault, an admin route', async () => {
    const late = await createRelayService({ latency: 5 })
    const { visit } = late.world
    const answer = late.answer({ method: 'GET', url: `/vehicles?plate=${visit.plate}`, headers })
    expect(answer).toBeInstanceOf(Promise)
    expect(await answer).toMatchObject({ status: 200 })
    const slow = await createRelayService({ faults: [{ route: 'GET /vehicles', kind: 'slow', mode: 'always' }] })
    expect(slow.answer({ method: 'GET', url: `/vehicles?plate=${visit.plate}`, headers })).toBeInstanceOf(Promise)
    const admin = await createRelayService({ extensions: [devtools()] })
    const index = admin.answer({ method: 'GET', url: '/__relay', headers })
    expect(index).toBeInstanceOf(Promise)
    expect((await index).status).toBeLessThan(500)
  })
})

describe('a dev tool that fails on an entry', () => {
  it('changes neither the answer nor what the other tools hear, and is reported', async () => {
    const heard: number[] = []
    const service = await createRelayService({
      extensions: [
        {
          onRecord: () => {
            throw new Error('a dev tool broke')
          },
        },
        { onRecord: (entry) => void heard.push(entry.seq) },
      ],
    })
    const reported = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const request = {
        method: 'GET',
        url: `/vehicles?plate=${service.world.visit.plate}`,
        headers: { authorization: 'Bearer relay-mock-token' },
      }
      expect((service.answer(request) as RelayResponse).status).toBe(200)
      expect((await service.handle(request)).status).toBe(200)
      expect(heard).toEqual([1, 2])
      expect(service.journal.size).toBe(2)
      expect(reported).toHaveBeenCalledTimes(2)
      expect(String(reported.mock.calls[0][0])).toMatch(
        /a dev tool failed on journal entry 1 \(a dev tool broke\); the request was answered and journaled as usual/,
      )
    } finally {
      reported.mockRestore()
    }
  })
})

describe('a journal subscriber that fails on an entry', () => {
  it('changes neither the answer, the entry, nor what the other subscribers hear, and is reported', async () => {
    const service = await createRelayService()
    const heard: number[] = []
    service.world.journal.subscribe(() => {
      throw new Error('a reporter broke')
    })
    service.world.journal.subscribe((entry) => void heard.push(entry.seq))
    const reported = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const request = {
        method: 'GET',
        url: `/vehicles?plate=${service.world.visit.plate}`,
        headers: { authorization: 'Bearer relay-mock-token' },
      }
      expect((service.answer(request) as RelayResponse).status).toBe(200)
      expect(heard).toEqual([1])
      expect(service.world.journal.entries().map((entry) => entry.response.status)).toEqual([200])
      expect(reported).toHaveBeenCalledTimes(1)
      expect(String(reported.mock.calls[0][0])).toMatch(
        /a journal subscriber failed on journal entry 1 \(a reporter broke\); the request was answered and journaled as usual/,
      )
    } finally {
      reported.mockRestore()
    }
  })
})

describe('a failure while recording', () => {
  it('is answered as a 500 that says the mock failed and that the request may be missing from the journal, and the next request is answered as usual', async () => {
    const service = await createRelayService()
    const request = {
      method: 'GET',
      url: `/vehicles?plate=${service.world.visit.plate}`,
      headers: { authorization: 'Bearer relay-mock-token' },
    }
    const record = vi.spyOn(service.journal, 'record').mockImplementationOnce(() => {
      throw new Error('the disk is full')
    })
    try {
      const failed = service.answer(request) as RelayResponse
      expect(failed.status).toBe(500)
      expect((JSON.parse(failed.text) as { message: string }).message).toBe(
        'The mock failed while recording this request: the disk is full. This is a bug in relay-mock; the request may be missing from the journal.',
      )
      expect((service.answer(request) as RelayResponse).status).toBe(200)
      expect(service.journal.entries().map((entry) => entry.response.status)).toEqual([200])
    } finally {
      record.mockRestore()
    }
  })
})

describe('a dev tool route that throws', () => {
  it("is answered with what was thrown, whatever it was: a 500 of the tool's route, not a failure of the pipeline", async () => {
    const { defineRoute } = await import('../../src/core/service/route.js')
    const thrown: unknown[] = ['a plain string', null, new Error('an error')]
    let next = 0
    const route = defineRoute({
      method: 'GET',
      path: '/__tool/boom',
      integration: 'admin',
      summary: 'boom',
      answers: {},
      public: true,
      handle: () => {
        throw thrown[next++]
      },
    })
    const service = await createRelayService({ extensions: [{ routes: () => [route] }] })
    const messages: string[] = []
    for (let i = 0; i < thrown.length; i++) {
      const answer = await service.handle({
        method: 'GET',
        url: '/__tool/boom',
        headers: { authorization: 'Bearer relay-mock-token' },
      })
      expect(answer.status).toBe(500)
      messages.push((JSON.parse(answer.text) as { message: string }).message)
    }
    expect(messages).toEqual(['a plain string', 'null', 'an error'])
  })
})
