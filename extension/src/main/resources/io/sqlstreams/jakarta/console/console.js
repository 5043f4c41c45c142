"use strict";
// The console page: one view per hash route (#/, #/search, #/schedules, #/alerts, #/<stream>/<group>).
const state = { session: null, timer: null, before: null };
const $ = id => document.getElementById(id);
const ABSENT = "—";
const VIEWS = ["overview", "group", "search", "schedules", "alerts"];
const EXCEPTION_STATUSES = ["ready", "inflight", "deferred", "dead", "discarded"];

async function call(path, method = "GET") {
  const headers = method === "POST" ? { "X-SQLStreams-CSRF": state.session.csrf } : {};
  const response = await fetch("api/" + path, { method, headers, credentials: "same-origin" });
  const body = await response.json();
  if (!response.ok) {
    throw new Error((body.code ? body.code + " " : "") + body.message);
  }
  return body;
}

function shown(value) {
  return value === null || value === undefined ? ABSENT : String(value);
}

function cell(row, text, number) {
  const td = row.insertCell();
  td.textContent = shown(text);
  if (number) td.className = "number";
  return td;
}

function firstLine(text) {
  return text === null || text === undefined ? null : text.split("\n")[0];
}

/** An ISO-8601 instant to the second, as "2026-12-05 18:13:38Z". */
function instant(text) {
  return text === null || text === undefined ? null : text.replace("T", " ").replace(/\.\d+/, "");
}

function statusOrder(entry) {
  const known = EXCEPTION_STATUSES.indexOf(entry[0]);
  return known < 0 ? EXCEPTION_STATUSES.length : known;
}

function duration(ms) {
  if (ms === null || ms === undefined) return null;
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return seconds + " s";
  if (seconds < 7200) return Math.round(seconds / 60) + " min";
  return Math.round(seconds / 3600) + " h";
}

function showError(error) {
  $("error").textContent = error ? error.message : "";
  $("error").hidden = !error;
}

function showNotice(text) {
  $("notice").textContent = text || "";
  $("notice").hidden = !text;
}

function plural(count, noun) {
  return count + " " + noun + (count === 1 ? "" : "s");
}

function groupPath(stream, group) {
  return "groups/" + encodeURIComponent(stream) + "/" + encodeURIComponent(group);
}

/** Fills the table body with one row per item; columns are [value of item, numeric?] pairs. */
function fill(body, items, columns) {
  body.replaceChildren();
  for (const item of items) {
    const row = body.insertRow();
    for (const [value, number] of columns) cell(row, value(item), number);
  }
}

async function overview() {
  const body = await call("overview");
  const m = body.manager;
  $("manager").textContent = "manager: " + m.state + ", " + plural(m.workers_running, "worker") + " running"
      + (m.last_error ? ", last error: " + m.last_error : "");
  const rows = $("groups");
  rows.replaceChildren();
  const names = [];
  for (const stream of body.streams) {
    names.push(stream.stream);
    for (const g of stream.groups) {
      const row = rows.insertRow();
      row.dataset.group = g.stream + "/" + g.group;
      const link = document.createElement("a");
      link.className = "group-link";
      link.href = "#/" + encodeURIComponent(g.stream) + "/" + encodeURIComponent(g.group);
      link.textContent = g.group;
      cell(row, g.stream);
      row.insertCell().append(link);
      const health = cell(row, g.health);
      health.classList.add("health", "health-" + g.health.replace(/ /g, "-"));
      health.title = g.health_reason;
      cell(row, g.lag, true).classList.add("lag");
      cell(row, g.exceptions.ready || 0, true);
      cell(row, g.exceptions.inflight || 0, true);
      cell(row, g.exceptions.deferred || 0, true);
      cell(row, g.dead, true).classList.add("dead");
      cell(row, duration(g.oldest_unresolved_age_ms), true);
      cell(row, g.rate_per_second === null ? null : g.rate_per_second.toFixed(1), true);
      cell(row, g.live_instances, true);
      cell(row, g.open_leases, true);
    }
  }
  $("stream-names").replaceChildren(...names.map(name => new Option(name)));
}

function filterQuery() {
  const query = new URLSearchParams();
  for (const [name, value] of new FormData($("filter"))) {
    if (value) query.append(name, value);
  }
  return query;
}

function expandable(row, detail) {
  row.classList.add("expandable");
  row.onclick = event => {
    if (event.target.tagName === "INPUT") return;
    const next = row.nextElementSibling;
    if (next && next.classList.contains("detail")) { next.remove(); return; }
    const extra = document.createElement("tr");
    extra.className = "detail";
    const td = extra.insertCell();
    td.colSpan = row.cells.length;
    const pre = document.createElement("pre");
    pre.textContent = detail;
    td.append(pre);
    row.after(extra);
  };
}

async function letters(path, append) {
  const query = filterQuery();
  if (append && state.before) query.set("before_id", state.before);
  const page = await call(path + "/dead?" + query);
  if (!append) $("letters").replaceChildren();
  for (const letter of page.letters) {
    const row = $("letters").insertRow();
    row.dataset.messageId = letter.message_id;
    const choice = row.insertCell();
    if (state.session.operator) {
      const select = document.createElement("input");
      select.type = "checkbox";
      select.className = "select";
      select.value = letter.message_id;
      choice.append(select);
    }
    cell(row, letter.message_id, true);
    cell(row, letter.message_key);
    cell(row, letter.runs, true);
    cell(row, instant(letter.dead_since)).title = letter.dead_since;
    cell(row, firstLine(letter.last_error)).className = "error-text";
    const headers = Object.keys(letter.headers || {}).length ? "\n\nheaders: " + JSON.stringify(letter.headers, null, 2) : "";
    expandable(row, shown(letter.last_error) + "\n\npayload: " + JSON.stringify(letter.payload, null, 2) + headers);
  }
  state.before = page.next_before_id;
  $("more").hidden = state.before === null;
}

async function group(path) {
  const g = await call(path);
  $("group-title").textContent = g.stream + " / " + g.group;
  $("lag").textContent = g.lag;
  $("dead-count").textContent = g.dead;
  $("group-state").textContent = "open leases " + g.open_leases
      + (g.paused ? " · paused by " + g.pause.actor + " at " + instant(g.pause.at) : "");
  $("fence").textContent = g.fence.summary;
  $("fence").classList.toggle("fence-held", g.fence.held);
  $("pause").disabled = g.paused;
  $("resume").disabled = !g.paused;
  const counts = Object.entries(g.exceptions).sort((a, b) => statusOrder(a) - statusOrder(b));
  fill($("counts"), counts, [[e => e[0]], [e => e[1], true]]);
  fill($("blocked"), g.blocked_keys, [[k => k.message_key], [k => k.waiting, true], [k => k.blocking_id, true],
    [k => k.blocking_status], [k => k.blocking_runs, true], [k => instant(k.blocking_run_after)],
    [k => firstLine(k.blocking_error)]]);
  fill($("actions"), g.actions, [[a => instant(a.at)], [a => a.kind], [a => a.actor], [a => a.affected, true]]);
}

async function errorGroups(path) {
  const body = await call(path + "/dead/errors?" + filterQuery());
  fill($("error-groups"), body.errors, [[e => firstLine(e.last_error)], [e => e.count, true],
    [e => instant(e.newest_dead_since)],
    [e => e.sample_payload === undefined ? null : JSON.stringify(e.sample_payload)]]);
}

/** The checked dead letters as the id parameter, or the filter when none is checked. */
function selection() {
  const checked = [...document.querySelectorAll("#letters input.select:checked")].map(box => box.value);
  return checked.length ? new URLSearchParams({ id: checked.join(",") }) : filterQuery();
}

/** Counts the selection with a dry run, asks in the #confirm panel, and on yes redrives or discards it. */
async function settle(path, verb, done) {
  showError(null);
  showNotice(null);
  const query = selection();
  const endpoint = path + "/dead/" + verb + "?";
  const dry = await call(endpoint + query + "&dry_run=true", "POST");
  $("confirm-text").textContent = verb + " " + plural(dry.count, "dead letter") + "?";
  $("confirm").hidden = false;
  $("confirm-no").onclick = () => { $("confirm").hidden = true; };
  $("confirm-yes").onclick = () => {
    $("confirm").hidden = true;
    call(endpoint + query, "POST")
        .then(answer => showNotice((verb === "redrive" ? "redriven " : "discarded ")
            + plural(answer.count, "dead letter")))
        .then(done).catch(showError);
  };
}

function showGroup(stream, name) {
  const path = groupPath(stream, name);
  const refresh = () => Promise.all([group(path), errorGroups(path), letters(path, false)]).catch(showError);
  const act = action => () => action().then(refresh).catch(showError);
  $("filter").onsubmit = event => { event.preventDefault(); refresh(); };
  $("more").onclick = () => letters(path, true).catch(showError);
  $("pause").onclick = act(() => call(path + "/pause", "POST"));
  $("resume").onclick = act(() => call(path + "/resume", "POST"));
  $("redrive").onclick = () => settle(path, "redrive", refresh).catch(showError);
  $("discard").onclick = () => settle(path, "discard", refresh).catch(showError);
  refresh();
  state.timer = setInterval(() => group(path).catch(showError), 5000);
}

async function search() {
  const stream = encodeURIComponent($("search-stream").value);
  const id = $("search-id").value.trim();
  const key = $("search-key").value;
  const messages = id ? [await call("streams/" + stream + "/messages/" + encodeURIComponent(id))]
      : (await call("streams/" + stream + "/keys?" + new URLSearchParams({ key }))).messages;
  const rows = [];
  for (const m of messages) {
    for (const [name, placement] of Object.entries(m.groups)) rows.push({ m, name, placement });
  }
  fill($("placements"), rows, [[r => r.m.message_id, true], [r => r.m.message_key], [r => instant(r.m.created_at)],
    [r => r.name], [r => r.placement.state], [r => r.placement.runs, true],
    [r => firstLine(r.placement.last_error)], [r => instant(r.placement.run_after)]]);
  if (!rows.length) showNotice("no such message, or no group on the stream");
}

async function schedules() {
  const body = await call("schedules");
  fill($("schedule-rows"), body.schedules, [[s => s.name], [s => s.stream], [s => s.expression],
    [s => s.suspended ? "suspended" : ""], [s => instant(s.next_scheduled_at)],
    [s => instant(s.last_scheduled_at)]]);
}

async function alerts() {
  const body = await call("alerts");
  const owner = o => o.kind === "system" ? "system" : o.stream + (o.group ? "/" + o.group : "");
  fill($("alert-rows"), body.alerts, [[a => a.status], [a => a.severity], [a => a.name], [a => a.code],
    [a => owner(a.owner)], [a => instant(a.at)], [a => a.message]]);
  for (const row of $("alert-rows").rows) row.cells[0].classList.add("health", "alert-" + row.cells[0].textContent);
}

function route() {
  const parts = location.hash.split("/").slice(1).filter(part => part).map(decodeURIComponent);
  const view = parts.length === 2 ? "group" : VIEWS.includes(parts[0]) ? parts[0] : "overview";
  clearInterval(state.timer);
  showError(null);
  showNotice(null);
  $("confirm").hidden = true;
  for (const name of VIEWS) $(name).hidden = name !== view;
  if (view === "group") {
    showGroup(parts[0], parts[1]);
  } else if (view === "search") {
    $("search-form").onsubmit = event => { event.preventDefault(); showNotice(null); search().catch(showError); };
    overview().catch(showError);
  } else if (view === "schedules") {
    schedules().catch(showError);
  } else if (view === "alerts") {
    alerts().catch(showError);
  } else {
    const refresh = () => overview().then(() => showError(null)).catch(showError);
    refresh();
    state.timer = setInterval(refresh, 5000);
  }
}

call("session").then(session => {
  state.session = session;
  $("user").textContent = session.user + (session.operator ? " (operator)" : " (viewer)");
  document.querySelectorAll(".operator").forEach(e => { e.hidden = !session.operator; });
  window.addEventListener("hashchange", route);
  route();
}).catch(showError);
