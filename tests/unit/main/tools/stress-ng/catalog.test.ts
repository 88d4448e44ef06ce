import { describe, expect, it } from 'vitest'
import { buildCatalog } from '../../../../../src/main/api/catalog-handlers'
import { CPU_METHODS, stressNgDefaults, VM_METHODS } from '../../../../../src/main/tools/stress-ng/params'

/** What the wizard reads about stress-ng (catalog:get): a tool of its own, with a form's schema and defaults. */
describe('stress-ng in the catalog', () => {
  it('is a cpu tool with every parameter, its choices and defaults in the JSON Schema', () => {
    const entry = buildCatalog().tools.find((t) => t.id === 'stress-ng')
    expect(entry).toMatchObject({ id: 'stress-ng', name: 'stress-ng', category: 'cpu', network: false, defaults: stressNgDefaults })
    const properties = entry!.paramsSchema.properties as Record<string, { enum?: string[]; default?: unknown; description?: string }>
    expect(Object.keys(properties)).toEqual(['stressor', 'workers', 'timeoutSeconds', 'cpuMethod', 'vmBytes', 'vmMethod', 'vmKeep'])
    expect(properties.stressor!.enum).toEqual(['cpu', 'vm'])
    expect(properties.cpuMethod!.enum).toEqual([...CPU_METHODS])
    expect(properties.vmMethod!.enum).toEqual([...VM_METHODS])
    for (const [key, value] of Object.entries(stressNgDefaults)) expect(properties[key]!.default, key).toEqual(value)
    for (const [key, property] of Object.entries(properties)) expect(property.description?.length, key).toBeGreaterThan(20)
  })
})
