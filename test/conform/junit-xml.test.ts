// The JUnit report is well-formed XML, as another parser reads it: Python's standard library, as CI
// tools that read JUnit files do. The reporters' own tests: reporters.test.ts.
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { toJUnitXml } from '../../src/node/reporters/index.js'
import { needs } from '../support/needs.js'
import { allowingPartial, result } from './fixtures/run-result.js'

// Python's XML parser reads the report.
needs('python3')

describe('the JUnit report', () => {
  it('is well-formed XML', () => {
    const count = (text: string) =>
      execFileSync(
        'python3',
        [
          '-c',
          'import sys, xml.etree.ElementTree as ET; r = ET.fromstring(sys.stdin.read()); print(len(r.findall(".//testcase")), len(r.findall(".//failure")), len(r.findall(".//skipped")))',
        ],
        { input: text, encoding: 'utf8' },
      ).trim()
    expect(count(toJUnitXml(result))).toBe('4 2 0')
    expect(count(toJUnitXml(allowingPartial))).toBe('4 1 1')
  })
})
