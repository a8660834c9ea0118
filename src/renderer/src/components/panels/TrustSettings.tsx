import '../common/trust.css'
import type { McpServerView, TrustEntryView } from '../../../../shared/trust'
import type { TrustState } from '../../state/use-trust'
import { TrustRequestDetails } from '../layout/TrustDialog'

// Settings → Project trust (every approval, revocable; what is still asked, approvable) and MCP servers
// (state, tools, the end of a failed server's stderr, restart).

export function TrustSettings({ trust }: { trust: TrustState }): React.JSX.Element {
  const { entries, mcp } = trust
  return (
    <>
      <h3 id="project-trust">Project trust</h3>
      <p className="muted small">
        A project may ask to connect to servers it names (with your environment variables) or to start processes (MCP servers). Nothing happens until you approve exactly that;
        a change to what was approved asks again.
      </p>
      {entries.length === 0 ? (
        <p className="muted" data-testid="trust-empty">
          This project asks for nothing beyond its folder.
        </p>
      ) : (
        <ul className="trust-list" data-testid="trust-list">
          {entries.map((entry) => (
            <TrustItem key={entry.fingerprint} entry={entry} trust={trust} />
          ))}
        </ul>
      )}
      <h3 id="mcp-servers">MCP servers</h3>
      {!mcp || (mcp.configFile === null && mcp.problems.length === 0) ? (
        <p className="muted">This project declares no MCP servers (nao_config.yaml has no <code>mcp: json_file_path:</code>).</p>
      ) : (
        <>
          <p className="muted small">
            From <code>{mcp.configFile ?? 'nao_config.yaml'}</code>. Their tools are offered to the model as <code>server__tool</code>.
          </p>
          {mcp.servers.length === 0 && <p className="muted">The file lists no server.</p>}
          <ul className="mcp-list" data-testid="mcp-list">
            {mcp.servers.map((server) => (
              <McpServerItem key={server.name} server={server} trust={trust} />
            ))}
          </ul>
          {mcp.problems.map((problem) => (
            <p key={problem} className="error-text small">
              {problem}
            </p>
          ))}
        </>
      )}
    </>
  )
}

function TrustItem({ entry, trust }: { entry: TrustEntryView; trust: TrustState }): React.JSX.Element {
  return (
    <li className="trust-item" data-testid="trust-item">
      <TrustRequestDetails entry={entry} />
      <div className="row">
        <span className={`status-dot ${entry.approved ? 'ok' : 'off'}`} />
        <span className="small">
          {entry.approved ? `Approved ${entry.approvedAt ? new Date(entry.approvedAt).toLocaleString() : ''}` : 'Not approved'}
          {!entry.askedNow && ' · no longer asked by the project'}
        </span>
        {entry.approved ? (
          <button className="button small" onClick={() => void trust.revoke(entry.fingerprint)}>
            Revoke
          </button>
        ) : (
          <button className="button small primary" onClick={() => void trust.approve(entry.fingerprint)}>
            Approve
          </button>
        )}
      </div>
    </li>
  )
}

const STATE_TEXT: Record<McpServerView['state'], string> = {
  'not-approved': 'not approved — not started',
  starting: 'starting…',
  ready: 'ready',
  failed: 'failed',
  stopped: 'stopped'
}

function McpServerItem({ server, trust }: { server: McpServerView; trust: TrustState }): React.JSX.Element {
  const state = server.state === 'ready' ? `ready (${server.tools.length} tool${server.tools.length === 1 ? '' : 's'})` : STATE_TEXT[server.state]
  return (
    <li className="mcp-item" data-testid="mcp-server">
      <div className="row">
        <span className={`status-dot ${server.state === 'ready' ? 'ok' : 'off'}`} />
        <strong>{server.name}</strong>
        <span className="small" data-testid="mcp-state">
          {state}
        </span>
        {server.state === 'not-approved' ? (
          <a className="small" href="#project-trust">
            approve it above
          </a>
        ) : (
          <button className="button small" onClick={() => void trust.restart(server.name)} disabled={server.state === 'starting'}>
            Restart
          </button>
        )}
      </div>
      <code className="small command-line">{server.commandLine}</code>
      {server.error && <p className="error-text small">{server.error}</p>}
      {server.stderrTail && (
        <details>
          <summary className="small">Last lines of its stderr</summary>
          <pre className="small">{server.stderrTail}</pre>
        </details>
      )}
      {server.tools.length > 0 && (
        <details>
          <summary className="small">Tools ({server.tools.reduce((sum, tool) => sum + tool.tokens, 0).toLocaleString()} tokens in every request)</summary>
          <ul className="small">
            {server.tools.map((tool) => (
              <li key={tool.name}>
                <code>{tool.name}</code> — {tool.tokens} tokens
              </li>
            ))}
          </ul>
        </details>
      )}
    </li>
  )
}
