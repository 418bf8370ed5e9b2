import { cleanup } from '@testing-library/react'
import { afterEach } from 'vitest'

// Every UI project's tests render into one document (happy-dom): each test starts from an empty one.
afterEach(cleanup)
