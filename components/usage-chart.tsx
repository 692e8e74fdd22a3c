"use client";
/** Credits spent per day, as bars, with a table for people who do not read charts. */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export interface DayUsage {
  day: string;
  credits: number;
  calls: number;
}

export function UsageChart({ days }: { days: DayUsage[] }) {
  const total = days.reduce((sum, d) => sum + d.credits, 0);
  return (
    <figure className="chart">
      <div role="img" aria-label={`Credits spent per day over the last ${days.length} days: ${total} in all.`}>
        <ResponsiveContainer width="100%" height={220}>
          <BarChart data={days} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="day" tickFormatter={(day: string) => day.slice(5)} minTickGap={16} />
            <YAxis allowDecimals={false} width={48} />
            <Tooltip formatter={(value) => [`${value} credits`, "Spent"]} labelFormatter={(day) => String(day)} />
            <Bar dataKey="credits" fill="var(--accent)" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <details>
        <summary>Usage as a table</summary>
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col" className="num">
                  Calls
                </th>
                <th scope="col" className="num">
                  Credits
                </th>
              </tr>
            </thead>
            <tbody>
              {days
                .filter((d) => d.calls > 0)
                .map((d) => (
                  <tr key={d.day}>
                    <td>{d.day}</td>
                    <td className="num">{d.calls}</td>
                    <td className="num">{d.credits}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
