export { freePort } from '../../lab/net'
