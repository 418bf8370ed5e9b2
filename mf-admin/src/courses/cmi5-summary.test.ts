import { describe, expect, it } from 'vitest'
import { CMI5_MESSAGES, MAX_CMI5_AUS } from '@portal/contracts'
import { cmi5Summary, cmi5Text, xmlText } from './cmi5-summary.ts'
import { cmi5Check, NOT_CMI5_XML } from './scorm-editor/captivate-check.ts'
import { cmi5Xml } from './cmi5.test-support.ts'

describe('cmi5Summary', () => {
  it('reads the course title (its English langstring) and counts the AUs, comments left out', () => {
    expect(cmi5Summary(cmi5Xml())).toEqual({ course: true, title: 'Rocks & stones', auCount: 2 })
    expect(cmi5Summary(cmi5Xml(1, '<langstring>Only one</langstring>'))).toEqual({ course: true, title: 'Only one', auCount: 1 })
  })

  it('reads prefixed names and UTF-16 text', () => {
    const prefixed =
      '<c:courseStructure xmlns:c="x"><c:course id="a:b"><c:title><c:langstring lang="en">T</c:langstring></c:title></c:course><c:au id="a:c"/><c:au id="a:d"></c:au></c:courseStructure>'
    expect(cmi5Summary(prefixed)).toEqual({ course: true, title: 'T', auCount: 2 })
    const utf16 = new Uint8Array([0xff, 0xfe, ...Buffer.from(prefixed, 'utf16le')])
    expect(cmi5Summary(xmlText(utf16)).auCount).toBe(2)
  })

  it('tells XML that is no course structure', () => {
    expect(cmi5Summary('<manifest identifier="m"><organizations/></manifest>')).toEqual({ course: false, title: null, auCount: 0 })
    expect(cmi5Summary('<courseStructure/>').course).toBe(false)
  })
})

describe('cmi5Check', () => {
  it('shows a cmi5 course with its AU count, and says why the server would refuse one', () => {
    expect(cmi5Check({ course: true, title: 'Rocks', auCount: 3 })).toEqual({ state: 'cmi5', title: 'Rocks', auCount: 3 })
    expect(cmi5Check({ course: false, title: null, auCount: 2 })).toEqual({ state: 'none', reason: NOT_CMI5_XML })
    expect(cmi5Check({ course: true, title: null, auCount: 0 })).toEqual({ state: 'none', reason: CMI5_MESSAGES.noAus })
    expect(cmi5Check({ course: true, title: null, auCount: MAX_CMI5_AUS + 1 })).toEqual({ state: 'none', reason: CMI5_MESSAGES.tooManyAus })
  })

  it('words the line the form shows', () => {
    expect(cmi5Text({ title: 'Rocks', auCount: 3 })).toBe('cmi5 course “Rocks” · 3 assignable units')
    expect(cmi5Text({ title: null, auCount: 1 })).toBe('cmi5 course · 1 assignable unit')
  })
})
