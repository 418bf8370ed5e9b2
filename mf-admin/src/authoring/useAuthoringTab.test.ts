import { describe, expect, it } from 'vitest'
import { ADD_TARGET, deleteTarget, editTarget, targetsAfterClose, targetsAfterDelete } from './useAuthoringTab.ts'

describe('focus in an authoring tab', () => {
  it('goes back to the Add button when the Add form closes', () => {
    expect(targetsAfterClose({ mode: 'add' })).toEqual([ADD_TARGET])
  })

  it("goes back to the edited row's Edit button, or Add when that row is gone", () => {
    expect(targetsAfterClose({ mode: 'edit', item: { id: 7 } })).toEqual([editTarget(7), ADD_TARGET])
  })

  it("goes to the next row's Delete after a delete, else the previous row's, else Add", () => {
    expect(targetsAfterDelete([3, 7, 9], 7)).toEqual([deleteTarget(9), ADD_TARGET])
    expect(targetsAfterDelete([3, 7, 9], 9)).toEqual([deleteTarget(7), ADD_TARGET])
    expect(targetsAfterDelete([3], 3)).toEqual([ADD_TARGET])
  })
})
