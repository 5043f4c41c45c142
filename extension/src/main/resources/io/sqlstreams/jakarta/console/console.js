"use strict";
// The console page: the overview every 5 s, one group's view under #/<stream>/<group>.
const state = { session: null, timer: null, before: null };
const $ = id => document.getElementById(id);

async function call(path, method = "GET") {
  const headers = method === "POST" ? { "X-SQLStreams-CSRF": state.session.csrf } : {};
  const response = await fetch("api/" + path, { method, headers, credentials: "same-origin" });
  const body = await response.json();
  if (!response.ok) {
    throw new Error((body.code ? body.code + " " : "") + body.message);
  }
  return body;
}

function cell(row, text, number) {
  const td = row.insertCell();
  td.textContent = text === null || text === undefined ? "" : String(text);
  if (number) td.className = "number";
  return td;
}

function showError(error) {
  $("error").textContent = error ? error.message : "";
  $("error").hidden = !error;
}

function showNotice(text) {
  $("notice").textContent = text || "";
  $("notice").hidden = !text;
}

function groupPath(stream, group) {
  return "groups/" + encodeURIComponent(stream) + "/" + encodeURIComponent(group);
}

async function overview() {
  const body = await call("overview");
  const rows = $("groups");
  rows.replaceChildren();
  for (const stream of body.streams) {
    for (const g of stream.groups) {
      const row = rows.insertRow();
      row.dataset.group = g.stream + "/" + g.group;
      if (g.paused) row.className = "paused";
      const link = document.createElement("a");
      link.className = "group-link";
      link.href = "#/" + encodeURIComponent(g.stream) + "/" + encodeURIComponent(g.group);
      link.textContent = g.group;
      cell(row, g.stream);
      row.insertCell().append(link);
      cell(row, g.lag, true).classList.add("lag");
      cell(row, g.exceptions.ready || 0, true);
      cell(row, g.exceptions.deferred || 0, true);
      cell(row, g.dead, true).classList.add("dead");
      cell(row, g.open_leases, true);
      cell(row, g.paused ? "paused" : "");
    }
  }
}

function filterQuery() {
  const query = new URLSearchParams();
  for (const [name, value] of new FormData($("filter"))) {
    if (value) query.append(name, value);
  }
  return query;
}

async function letters(path, append) {
  const query = filterQuery();
  if (append && state.before) query.set("before_id", state.before);
  const page = await call(path + "/dead?" + query);
  if (!append) $("letters").replaceChildren();
  for (const letter of page.letters) {
    const row = $("letters").insertRow();
    row.dataset.messageId = letter.message_id;
    const select = document.createElement("input");
    select.type = "checkbox";
    select.className = "select";
    select.value = letter.message_id;
    row.insertCell().append(select);
    cell(row, letter.message_id, true);
    cell(row, letter.message_key);
    cell(row, letter.runs, true);
    cell(row, letter.dead_since);
    cell(row, letter.last_error);
  }
  state.before = page.next_before_id;
  $("more").hidden = state.before === null;
}

function listItems(list, items, text) {
  list.replaceChildren(...items.map(item => {
    const li = document.createElement("li");
    li.textContent = text(item);
    return li;
  }));
}

async function group(path) {
  const g = await call(path);
  $("group-title").textContent = g.stream + " / " + g.group;
  $("lag").textContent = g.lag;
  $("dead-count").textContent = g.dead;
  $("group-state").textContent = "open leases " + g.open_leases
      + (g.paused ? ", paused by " + g.pause.actor + " at " + g.pause.at : "");
  listItems($("blocked"), g.blocked_keys, k => k.message_key + ": " + k.waiting + " waiting behind "
      + k.blocking_id + " (" + k.blocking_status + ")");
  listItems($("actions"), g.actions, a => a.at + " " + a.kind + " by " + a.actor + ", " + a.affected + " affected");
}

/** The checked dead letters as the id parameter, or the filter when none is checked. */
function selection() {
  const checked = [...document.querySelectorAll("#letters input.select:checked")].map(box => box.value);
  return checked.length ? new URLSearchParams({ id: checked.join(",") }) : filterQuery();
}

function plural(count, noun) {
  return count + " " + noun + (count === 1 ? "" : "s");
}

/** Counts the selection with a dry run, asks in the #confirm panel, and on yes redrives or discards it. */
async function settle(path, verb, done) {
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

function route() {
  const parts = location.hash.split("/").slice(1).map(decodeURIComponent);
  clearInterval(state.timer);
  showError(null);
  showNotice(null);
  $("confirm").hidden = true;
  $("overview").hidden = parts.length === 2;
  $("group").hidden = parts.length !== 2;
  if (parts.length !== 2) {
    overview().catch(showError);
    state.timer = setInterval(() => overview().catch(showError), 5000);
    return;
  }
  const path = groupPath(parts[0], parts[1]);
  const refresh = () => Promise.all([group(path), letters(path, false)]).catch(showError);
  const act = action => () => action().then(refresh).catch(showError);
  $("filter").onsubmit = event => { event.preventDefault(); refresh(); };
  $("more").onclick = () => letters(path, true).catch(showError);
  $("pause").onclick = act(() => call(path + "/pause", "POST"));
  $("resume").onclick = act(() => call(path + "/resume", "POST"));
  $("redrive").onclick = () => settle(path, "redrive", refresh).catch(showError);
  $("discard").onclick = () => settle(path, "discard", refresh).catch(showError);
  refresh();
}

call("session").then(session => {
  state.session = session;
  $("user").textContent = session.user + (session.operator ? " (operator)" : " (viewer)");
  document.querySelectorAll(".operator").forEach(e => { e.hidden = !session.operator; });
  window.addEventListener("hashchange", route);
  route();
}).catch(showError);
