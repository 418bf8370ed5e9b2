// Async boundary: lets Module Federation settle the shared singletons before React loads.
import('./bootstrap.tsx')
