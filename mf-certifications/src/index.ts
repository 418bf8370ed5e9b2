// Async boundary, as in the shell: shared singletons settle before React loads.
import('./bootstrap.tsx')
