import type { ZodType } from 'zod'

/**
 * Values that passed a schema and were frozen, all the way down, before being marked: they still
 * pass it, so a check of the same value against the same schema (dispatch checking an answer
 * against the contract) can be left out. A value that is not frozen is never taken as checked.
 */
const checked = new WeakMap<object, ZodType>()

/** Marks `value`, the output of `schema` frozen all the way down, as passing `schema`; gives it back. */
export function markChecked<T extends object>(value: T, schema: ZodType): T {
  if (!Object.isFrozen(value)) throw new TypeError('only a frozen value can be marked as checked: a value that can change may stop passing its schema')
  checked.set(value, schema)
  return value
}

/** Whether `value` is one markChecked marked as passing `schema` (that very schema). */
export function wasChecked(value: unknown, schema: ZodType): boolean {
  return typeof value === 'object' && value !== null && checked.get(value) === schema
}

/** Freezes `value` and everything in it; gives it back. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const inner of Object.values(value)) deepFreeze(inner)
  }
  return value
}
